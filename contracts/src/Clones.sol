// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Clones
/// @notice EIP-1167 minimal proxies: 45 bytes of runtime code that delegate every call to `implementation`.
library Clones {
    error CloneFailed();

    /// Deploys `363d3d373d3d3d363d73<implementation>5af43d82803e903d91602b57fd5bf3` with CREATE.
    function clone(address implementation) internal returns (address instance) {
        assembly {
            let ptr := mload(0x40)
            // init code: 3d602d80600a3d3981f3 (copies the 45-byte runtime and returns it)
            mstore(ptr, 0x3d602d80600a3d3981f3363d3d373d3d3d363d73000000000000000000000000)
            mstore(add(ptr, 0x14), shl(0x60, implementation))
            mstore(add(ptr, 0x28), 0x5af43d82803e903d91602b57fd5bf30000000000000000000000000000000000)
            instance := create(0, ptr, 0x37)
        }
        if (instance == address(0)) revert CloneFailed();
    }
}
