// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title CollateralToken
/// @notice The markets' collateral on a local or test chain: a plain ERC-20 (6 decimals by default,
/// like Delphi's $TEST and USDC) with a faucet that gives a fixed amount to any address at most once
/// per period, like Delphi's testnet faucet (`requestToken`, `RequestTooOften`). Error names follow
/// ERC-6093 so wallets and explorers decode them.
contract CollateralToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    /// @notice tokens (base units) one faucet request gives
    uint256 public immutable FAUCET_AMOUNT;
    /// @notice seconds an address waits between faucet requests
    uint256 public immutable FAUCET_PERIOD;
    /// @notice may mint without limit (the deployer's seeding account)
    address public immutable minter;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    /// @notice when an address may next call requestToken (0 = now)
    mapping(address => uint256) public nextRequestAt;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event TokensRequested(address indexed account, uint256 amount, uint256 nextRequestAt);

    error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed);
    error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    error ERC20InvalidReceiver(address receiver);
    error ERC20InvalidSpender(address spender);
    error OnlyMinter();
    error RequestTooOften(uint256 nextRequestAt);

    constructor(
        string memory name_,
        string memory symbol_,
        uint8 decimals_,
        uint256 faucetAmount,
        uint256 faucetPeriod,
        address minter_
    ) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        FAUCET_AMOUNT = faucetAmount;
        FAUCET_PERIOD = faucetPeriod;
        minter = minter_;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < value) revert ERC20InsufficientAllowance(msg.sender, allowed, value);
            unchecked {
                allowance[from][msg.sender] = allowed - value;
            }
        }
        _transfer(from, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        if (spender == address(0)) revert ERC20InvalidSpender(spender);
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    /// @notice FAUCET_AMOUNT to the caller, at most once per FAUCET_PERIOD
    function requestToken() external {
        uint256 next = nextRequestAt[msg.sender];
        if (block.timestamp < next) revert RequestTooOften(next);
        next = block.timestamp + FAUCET_PERIOD;
        nextRequestAt[msg.sender] = next;
        _mint(msg.sender, FAUCET_AMOUNT);
        emit TokensRequested(msg.sender, FAUCET_AMOUNT, next);
    }

    function mint(address to, uint256 value) external {
        if (msg.sender != minter) revert OnlyMinter();
        _mint(to, value);
    }

    function _mint(address to, uint256 value) private {
        if (to == address(0)) revert ERC20InvalidReceiver(to);
        totalSupply += value;
        unchecked {
            balanceOf[to] += value; // bounded by totalSupply, which did not overflow
        }
        emit Transfer(address(0), to, value);
    }

    function _transfer(address from, address to, uint256 value) private {
        if (to == address(0)) revert ERC20InvalidReceiver(to);
        uint256 balance = balanceOf[from];
        if (balance < value) revert ERC20InsufficientBalance(from, balance, value);
        unchecked {
            balanceOf[from] = balance - value;
            balanceOf[to] += value; // Σ balances = totalSupply, so no overflow
        }
        emit Transfer(from, to, value);
    }
}
