// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {DelphiFactory} from "./DelphiFactory.sol";
import {DpmMarket} from "./DpmMarket.sol";
import {DpmMath} from "./DpmMath.sol";
import {MarketGateway} from "./MarketGateway.sol";

/// @title DynamicParimutuelGateway
/// @notice Delphi's DPM gateway interface (research/delphi.md, "Exact interface") over DpmMarket proxies
/// from its own DelphiFactory (`delphiFactory()`). Maths: src/core/markets/dpm/dpm.ts, bit for bit.
/// Deploy with (collateral token, oracle relayer); the factory and implementation come with it.
contract DynamicParimutuelGateway is MarketGateway {
    constructor(address token, address oracleRelayer_) MarketGateway(token, oracleRelayer_, address(new DpmMarket())) {}

    function _newFactory(address implementation, address token, uint256 scaler) internal override returns (address) {
        return address(new DelphiFactory(implementation, token, scaler));
    }

    function _dpm(address marketProxy) internal view returns (DpmMarket) {
        return DpmMarket(address(_market(marketProxy)));
    }

    function quoteBuyExactOut(address marketProxy, uint256 outcomeIdx, uint256 sharesOut)
        external
        view
        returns (uint256 tokensIn)
    {
        (tokensIn,,) = _market(marketProxy).quoteBuy(outcomeIdx, sharesOut);
    }

    function quoteSellExactIn(address marketProxy, uint256 outcomeIdx, uint256 sharesIn)
        external
        view
        returns (uint256 tokensOut)
    {
        (tokensOut,,) = _market(marketProxy).quoteSell(outcomeIdx, sharesIn);
    }

    function getMarket(address marketProxy) external view returns (DpmMarket.DpmState memory) {
        return _dpm(marketProxy).getMarket();
    }

    function calculateInitialPoolAndRefund(uint256 initialDeposit, uint256 outcomeCount)
        external
        pure
        returns (uint256 initialPool, uint256 refund)
    {
        return DpmMath.initialPoolAndRefund(initialDeposit, outcomeCount);
    }

    function calculateInitialDepositAndRefund(uint256 initialPool, uint256 outcomeCount)
        external
        pure
        returns (uint256 initialDeposit, uint256 refund)
    {
        return DpmMath.initialDepositAndRefund(initialPool, outcomeCount);
    }

    function marketCreatorSharesPerOutcome(address marketProxy) external view returns (uint256) {
        return _dpm(marketProxy).creatorSharesPerOutcome();
    }

    function marketCreatorTotalSharesLiquidationValue(address marketProxy) external view returns (uint256 tokensOut) {
        return _dpm(marketProxy).marketCreatorTotalSharesLiquidationValue();
    }

    function marketCreatorWinningSharesSettlementValue(address marketProxy, uint256 outcomeIdx)
        external
        view
        returns (uint256 tokensOut)
    {
        return _dpm(marketProxy).marketCreatorWinningSharesSettlementValue(outcomeIdx);
    }

    function outcomeSuppliesSum(address marketProxy) external view returns (uint256) {
        return _dpm(marketProxy).outcomeSuppliesSum();
    }

    // ------------------------------------------------------------ creation limits (same for every market)

    function minOutcomeCount(address marketProxy) external view returns (uint256) {
        _market(marketProxy);
        return DpmMath.MIN_OUTCOME_COUNT;
    }

    function maxOutcomeCount(address marketProxy) external view returns (uint256) {
        _market(marketProxy);
        return DpmMath.MAX_OUTCOME_COUNT;
    }

    function minK(address marketProxy) external view returns (uint256) {
        _market(marketProxy);
        return DpmMath.MIN_K;
    }

    function maxK(address marketProxy) external view returns (uint256) {
        _market(marketProxy);
        return DpmMath.MAX_K;
    }

    function minTradingFee(address marketProxy) external view returns (uint256) {
        _market(marketProxy);
        return DpmMath.MIN_TRADING_FEE;
    }

    function maxTradingFee(address marketProxy) external view returns (uint256) {
        _market(marketProxy);
        return DpmMath.MAX_TRADING_FEE;
    }

    function minTradingWindow(address marketProxy) external view returns (uint256) {
        _market(marketProxy);
        return DpmMath.MIN_TRADING_WINDOW;
    }

    function maxTradingWindow(address marketProxy) external view returns (uint256) {
        _market(marketProxy);
        return DpmMath.MAX_TRADING_WINDOW;
    }

    function minSettlementWindow(address marketProxy) external view returns (uint256) {
        _market(marketProxy);
        return DpmMath.MIN_SETTLEMENT_WINDOW;
    }

    function maxSettlementWindow(address marketProxy) external view returns (uint256) {
        _market(marketProxy);
        return DpmMath.MAX_SETTLEMENT_WINDOW;
    }

    function minInitialDeposit(address marketProxy) external view returns (uint256) {
        _market(marketProxy);
        return DpmMath.MIN_INITIAL_DEPOSIT_TOKENS * 1e18 / TOKEN_DECIMAL_SCALER;
    }

    function maxInitialDeposit(address marketProxy) external view returns (uint256) {
        _market(marketProxy);
        return DpmMath.MAX_INITIAL_DEPOSIT_TOKENS * 1e18 / TOKEN_DECIMAL_SCALER;
    }
}
