// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title ERC6909
/// @notice Minimal ERC-6909 multi-token with the token-supply extension: a market's outcome shares are
/// ids 0..n−1 on its proxy (18 decimals). Error names follow OpenZeppelin's ERC6909.
abstract contract ERC6909 {
    event Transfer(
        address caller, address indexed sender, address indexed receiver, uint256 indexed id, uint256 amount
    );
    event OperatorSet(address indexed owner, address indexed spender, bool approved);
    event Approval(address indexed owner, address indexed spender, uint256 indexed id, uint256 amount);

    error ERC6909InsufficientBalance(address sender, uint256 balance, uint256 needed, uint256 id);
    error ERC6909InsufficientAllowance(address spender, uint256 allowance, uint256 needed, uint256 id);
    error ERC6909InvalidReceiver(address receiver);

    mapping(address owner => mapping(uint256 id => uint256)) public balanceOf;
    mapping(address owner => mapping(address spender => mapping(uint256 id => uint256))) public allowance;
    mapping(address owner => mapping(address spender => bool)) public isOperator;
    mapping(uint256 id => uint256) public totalSupply;

    function transfer(address receiver, uint256 id, uint256 amount) public virtual returns (bool) {
        _transfer(msg.sender, receiver, id, amount);
        return true;
    }

    function transferFrom(address sender, address receiver, uint256 id, uint256 amount) public virtual returns (bool) {
        if (sender != msg.sender && !isOperator[sender][msg.sender]) {
            uint256 allowed = allowance[sender][msg.sender][id];
            if (allowed != type(uint256).max) {
                if (allowed < amount) revert ERC6909InsufficientAllowance(msg.sender, allowed, amount, id);
                allowance[sender][msg.sender][id] = allowed - amount;
            }
        }
        _transfer(sender, receiver, id, amount);
        return true;
    }

    function approve(address spender, uint256 id, uint256 amount) public virtual returns (bool) {
        allowance[msg.sender][spender][id] = amount;
        emit Approval(msg.sender, spender, id, amount);
        return true;
    }

    function setOperator(address spender, bool approved) public virtual returns (bool) {
        isOperator[msg.sender][spender] = approved;
        emit OperatorSet(msg.sender, spender, approved);
        return true;
    }

    function supportsInterface(bytes4 interfaceId) public view virtual returns (bool) {
        return interfaceId == 0x0f632fb3 || interfaceId == 0x01ffc9a7; // ERC-6909, ERC-165
    }

    function _transfer(address sender, address receiver, uint256 id, uint256 amount) internal {
        if (receiver == address(0)) revert ERC6909InvalidReceiver(receiver);
        _debit(sender, id, amount);
        balanceOf[receiver][id] += amount;
        emit Transfer(msg.sender, sender, receiver, id, amount);
    }

    function _mint(address receiver, uint256 id, uint256 amount) internal {
        totalSupply[id] += amount;
        balanceOf[receiver][id] += amount;
        emit Transfer(msg.sender, address(0), receiver, id, amount);
    }

    function _burn(address sender, uint256 id, uint256 amount) internal {
        _debit(sender, id, amount);
        totalSupply[id] -= amount;
        emit Transfer(msg.sender, sender, address(0), id, amount);
    }

    function _debit(address sender, uint256 id, uint256 amount) private {
        uint256 balance = balanceOf[sender][id];
        if (balance < amount) revert ERC6909InsufficientBalance(sender, balance, amount, id);
        unchecked {
            balanceOf[sender][id] = balance - amount;
        }
    }
}
