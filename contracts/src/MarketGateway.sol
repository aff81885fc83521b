// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IMarketErrors} from "./IMarketErrors.sol";
import {MarketBase} from "./MarketBase.sol";
import {MarketFactory} from "./MarketFactory.sol";
import {MarketMetadata} from "./MarketTypes.sol";

interface IERC20Decimals {
    function decimals() external view returns (uint8);
}

/// @title MarketGateway
/// @notice The Delphi gateway surface both pricing rules share (research/delphi.md §6 and "Exact
/// interface"): trades with slippage bounds, exits, the settlement roles and the share views. One
/// gateway serves one collateral token; it creates its factory (and the factory's market
/// implementation) in its constructor and only acts on proxies that factory deployed. Traders approve
/// the MARKET PROXY for collateral (it pulls and holds the tokens), creators approve the factory.
///
/// Settlement: after the trading deadline anyone may call `resolveMarket` (locks the market until the
/// oracle answers; emits MarketResolutionRequested), the `oracleRelayer` settles (`settleMarket`) or
/// fails (`failMarket`) a market awaiting settlement, and the creator may use the legacy
/// `submitWinner` while no automated resolution is pending.
abstract contract MarketGateway is IMarketErrors {
    event GatewayBuy(
        address indexed marketProxy,
        address indexed buyer,
        uint256 indexed outcomeIdx,
        uint256 tokensIn,
        uint256 sharesOut
    );
    event GatewaySell(
        address indexed marketProxy,
        address indexed seller,
        uint256 indexed outcomeIdx,
        uint256 sharesIn,
        uint256 tokensOut
    );
    event GatewayRedemption(address indexed marketProxy, address indexed redeemer, uint256 sharesIn, uint256 tokensOut);
    event GatewayLiquidation(
        address indexed marketProxy,
        address indexed liquidator,
        uint256[] outcomeIndices,
        uint256[] sharesIn,
        uint256 totalTokensOut
    );
    event GatewayMarketSettled(
        address indexed marketProxy,
        uint256 winningOutcomeIdx,
        uint256 marketCreatorReward,
        uint256 refund,
        uint256 marketCreatorTradingFeesCut
    );
    event GatewayWinnerSubmitted(
        address indexed marketProxy,
        uint256 winningOutcomeIdx,
        uint256 marketCreatorReward,
        uint256 refund,
        uint256 marketCreatorTradingFeesCut
    );
    event GatewayMarketFailed(address indexed marketProxy);
    event MarketResolutionRequested(address indexed marketProxy, address indexed keeper);

    uint256 public constant MIN_SHARES_DELTA = 1e6;
    address public immutable TOKEN;
    uint256 public immutable TOKEN_DECIMAL_SCALER;
    /// 0.01 token in base units.
    uint256 public immutable MIN_TOKENS_DELTA;
    address public immutable oracleRelayer;
    address public immutable delphiFactory;

    constructor(address token, address oracleRelayer_, address implementation) {
        uint8 decimals = IERC20Decimals(token).decimals();
        if (decimals < 6) revert TokenDecimalsTooLow(decimals);
        if (decimals > 18) revert TokenDecimalsTooHigh(decimals);
        uint256 scaler = 10 ** (18 - uint256(decimals));
        TOKEN = token;
        TOKEN_DECIMAL_SCALER = scaler;
        MIN_TOKENS_DELTA = 10 ** uint256(decimals) / 100;
        oracleRelayer = oracleRelayer_;
        delphiFactory = _newFactory(implementation, token, scaler);
    }

    /// Creates this gateway's factory (called once, from the constructor).
    function _newFactory(address implementation, address token, uint256 scaler) internal virtual returns (address);

    modifier onlyOracleRelayer() {
        if (msg.sender != oracleRelayer) revert NotOracleRelayer(msg.sender);
        _;
    }

    function _market(address marketProxy) internal view returns (MarketBase) {
        if (!MarketFactory(delphiFactory).marketProxyExists(marketProxy)) {
            revert MarketProxyNotDeployedByFactory(marketProxy);
        }
        return MarketBase(marketProxy);
    }

    // ------------------------------------------------------------ trading

    function buyExactOut(address marketProxy, uint256 outcomeIdx, uint256 sharesOut, uint256 maxTokensIn)
        external
        returns (uint256 tokensIn)
    {
        tokensIn = _market(marketProxy).buy(msg.sender, outcomeIdx, sharesOut, maxTokensIn);
        emit GatewayBuy(marketProxy, msg.sender, outcomeIdx, tokensIn, sharesOut);
    }

    function sellExactIn(address marketProxy, uint256 outcomeIdx, uint256 sharesIn, uint256 minTokensOut)
        external
        returns (uint256 tokensOut)
    {
        tokensOut = _market(marketProxy).sell(msg.sender, outcomeIdx, sharesIn, minTokensOut);
        emit GatewaySell(marketProxy, msg.sender, outcomeIdx, sharesIn, tokensOut);
    }

    // ------------------------------------------------------------ exits

    function redeem(address marketProxy) external returns (uint256 sharesIn, uint256 tokensOut) {
        (sharesIn, tokensOut) = _market(marketProxy).redeem(msg.sender);
        emit GatewayRedemption(marketProxy, msg.sender, sharesIn, tokensOut);
    }

    function liquidate(address marketProxy, uint256[] calldata outcomeIndices)
        external
        returns (uint256[] memory sharesIn, uint256 totalTokensOut)
    {
        (sharesIn, totalTokensOut) = _market(marketProxy).liquidate(msg.sender, outcomeIndices);
        emit GatewayLiquidation(marketProxy, msg.sender, outcomeIndices, sharesIn, totalTokensOut);
    }

    /// Pays the creator of an expired or failed market (anyone may call; the tokens go to the creator).
    function liquidateMarketCreationShares(address marketProxy) external returns (uint256 _totalTokensOut) {
        return _market(marketProxy).liquidateCreationShares();
    }

    function marketCreationSharesLiquidated(address marketProxy) external view returns (bool) {
        return _market(marketProxy).creationSharesLiquidated();
    }

    // ------------------------------------------------------------ settlement

    function resolveMarket(address marketProxy) external {
        _market(marketProxy).requestResolution();
        emit MarketResolutionRequested(marketProxy, msg.sender);
    }

    function settleMarket(address marketProxy, uint256 winningOutcomeIdx)
        external
        onlyOracleRelayer
        returns (uint256 marketCreatorReward, uint256 refund, uint256 marketCreatorTradingFeesCut)
    {
        (marketCreatorReward, refund, marketCreatorTradingFeesCut) =
            _market(marketProxy).settle(msg.sender, winningOutcomeIdx, false);
        emit GatewayMarketSettled(
            marketProxy, winningOutcomeIdx, marketCreatorReward, refund, marketCreatorTradingFeesCut
        );
    }

    function failMarket(address marketProxy) external onlyOracleRelayer {
        _market(marketProxy).fail();
        emit GatewayMarketFailed(marketProxy);
    }

    /// Legacy settlement by the market's creator while the market awaits settlement.
    function submitWinner(address marketProxy, uint256 winningOutcomeIdx)
        external
        returns (uint256 marketCreatorReward, uint256 refund, uint256 marketCreatorTradingFeesCut)
    {
        (marketCreatorReward, refund, marketCreatorTradingFeesCut) =
            _market(marketProxy).settle(msg.sender, winningOutcomeIdx, true);
        emit GatewayWinnerSubmitted(
            marketProxy, winningOutcomeIdx, marketCreatorReward, refund, marketCreatorTradingFeesCut
        );
    }

    // ------------------------------------------------------------ views

    function marketStatus(address marketProxy) external view returns (uint8) {
        return _market(marketProxy).marketStatus();
    }

    function marketCreator(address marketProxy) external view returns (address) {
        return _market(marketProxy).creator();
    }

    function marketMetadata(address marketProxy) external view returns (MarketMetadata memory) {
        return _market(marketProxy).metadata();
    }

    function balanceOf(address marketProxy, address owner, uint256 outcomeIdx) external view returns (uint256) {
        return _market(marketProxy).balanceOf(owner, outcomeIdx);
    }

    function batchBalanceOf(address marketProxy, address[] calldata owners, uint256[] calldata outcomeIndices)
        external
        view
        returns (uint256[] memory)
    {
        if (owners.length != outcomeIndices.length) revert ArrayLengthMismatch();
        MarketBase m = _market(marketProxy);
        uint256[] memory balances = new uint256[](owners.length);
        for (uint256 j; j < owners.length; ++j) {
            balances[j] = m.balanceOf(owners[j], outcomeIndices[j]);
        }
        return balances;
    }

    function allowance(address marketProxy, address owner, address spender, uint256 id)
        external
        view
        returns (uint256)
    {
        return _market(marketProxy).allowance(owner, spender, id);
    }

    function isOperator(address marketProxy, address operator, address spender) external view returns (bool) {
        return _market(marketProxy).isOperator(operator, spender);
    }

    function totalSupply(address marketProxy, uint256 outcomeIdx) external view returns (uint256) {
        return _market(marketProxy).totalSupply(outcomeIdx);
    }

    function totalSupplies(address marketProxy, uint256[] calldata outcomeIndices)
        external
        view
        returns (uint256[] memory)
    {
        MarketBase m = _market(marketProxy);
        uint256[] memory supplies = new uint256[](outcomeIndices.length);
        for (uint256 j; j < outcomeIndices.length; ++j) {
            supplies[j] = m.totalSupply(outcomeIndices[j]);
        }
        return supplies;
    }

    function spotPrice(address marketProxy, uint256 outcomeIdx) external view returns (uint256) {
        return _market(marketProxy).spotPrice(outcomeIdx);
    }

    function spotPrices(address marketProxy, uint256[] calldata outcomeIndices)
        external
        view
        returns (uint256[] memory)
    {
        MarketBase m = _market(marketProxy);
        uint256[] memory prices = new uint256[](outcomeIndices.length);
        for (uint256 j; j < outcomeIndices.length; ++j) {
            prices[j] = m.spotPrice(outcomeIndices[j]);
        }
        return prices;
    }

    function spotImpliedProbability(address marketProxy, uint256 outcomeIdx) external view returns (uint256) {
        return _market(marketProxy).spotImpliedProbability(outcomeIdx);
    }

    function spotImpliedProbabilities(address marketProxy, uint256[] calldata outcomeIndices)
        external
        view
        returns (uint256[] memory)
    {
        MarketBase m = _market(marketProxy);
        uint256[] memory probabilities = new uint256[](outcomeIndices.length);
        for (uint256 j; j < outcomeIndices.length; ++j) {
            probabilities[j] = m.spotImpliedProbability(outcomeIndices[j]);
        }
        return probabilities;
    }
}
