// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "./Clones.sol";
import {IMarketErrors} from "./IMarketErrors.sol";
import {MarketBase} from "./MarketBase.sol";
import {MarketMetadata} from "./MarketTypes.sol";
import {SafeTransfer} from "./SafeTransfer.sol";

/// @title MarketFactory
/// @notice Deploys market proxies (EIP-1167 clones of one implementation) for its gateway, which creates
/// the factory in its own constructor. The creator approves this factory for the deposit (the market
/// proxy does not exist yet); the factory moves what the market asks for from the creator to the proxy.
abstract contract MarketFactory is IMarketErrors {
    event NewMarketProxy(
        address indexed marketProxy, address indexed creator, uint256 indexed index, uint256 initialDeposit
    );

    address public immutable IMPLEMENTATION;
    address public immutable TOKEN;
    uint256 public immutable TOKEN_DECIMAL_SCALER;
    address public immutable GATEWAY;

    address[] private _proxies;
    mapping(address => bool) private _exists;

    constructor(address implementation, address token, uint256 tokenDecimalScaler) {
        IMPLEMENTATION = implementation;
        TOKEN = token;
        TOKEN_DECIMAL_SCALER = tokenDecimalScaler;
        GATEWAY = msg.sender;
    }

    function deployNewMarketProxy(
        uint256 initialDeposit,
        MarketMetadata calldata metadata,
        bytes calldata abiEncodedConfig
    ) external returns (address marketProxy) {
        marketProxy = Clones.clone(IMPLEMENTATION);
        uint256 index = _proxies.length;
        _proxies.push(marketProxy);
        _exists[marketProxy] = true;
        uint256 amountIn = MarketBase(marketProxy)
            .initialize(GATEWAY, TOKEN, TOKEN_DECIMAL_SCALER, msg.sender, initialDeposit, metadata, abiEncodedConfig);
        emit NewMarketProxy(marketProxy, msg.sender, index, initialDeposit);
        SafeTransfer.safeTransferFrom(TOKEN, msg.sender, marketProxy, amountIn);
    }

    function getTotalMarketProxiesCount() external view returns (uint256) {
        return _proxies.length;
    }

    function marketProxyExists(address marketProxy) external view returns (bool) {
        return _exists[marketProxy];
    }

    function marketProxiesExist(address[] calldata marketProxies) external view returns (bool[] memory) {
        bool[] memory exist = new bool[](marketProxies.length);
        for (uint256 i; i < marketProxies.length; ++i) {
            exist[i] = _exists[marketProxies[i]];
        }
        return exist;
    }

    /// Proxies `first` to `last`, both included, in deployment order.
    function getMarketProxies(uint256 first, uint256 last) external view returns (address[] memory proxies) {
        uint256 count = _proxies.length;
        if (first > last || last >= count) revert MarketProxyRangeInvalid(first, last, count);
        proxies = new address[](last - first + 1);
        for (uint256 i = first; i <= last; ++i) {
            proxies[i - first] = _proxies[i];
        }
    }
}
