// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title SafeTransfer
/// @notice ERC-20 transfers that accept tokens returning nothing and bubble up the token's own revert
/// (e.g. ERC20InsufficientAllowance), so callers see why a transfer failed.
library SafeTransfer {
    error TokenTransferFailed(address token);

    function safeTransfer(address token, address to, uint256 amount) internal {
        _call(token, abi.encodeWithSelector(0xa9059cbb, to, amount));
    }

    function safeTransferFrom(address token, address from, address to, uint256 amount) internal {
        _call(token, abi.encodeWithSelector(0x23b872dd, from, to, amount));
    }

    function _call(address token, bytes memory data) private {
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok) {
            assembly {
                revert(add(ret, 0x20), mload(ret))
            }
        }
        if (token.code.length == 0 || (ret.length != 0 && !abi.decode(ret, (bool)))) {
            revert TokenTransferFailed(token);
        }
    }
}
