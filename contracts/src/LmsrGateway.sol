// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ExpLn} from "./ExpLn.sol";
import {FixedPointMath} from "./FixedPointMath.sol";
import {LmsrFactory} from "./LmsrFactory.sol";
import {LmsrMarket} from "./LmsrMarket.sol";
import {MarketGateway} from "./MarketGateway.sol";

/// @title LmsrGateway
/// @notice The Delphi trading interface over LmsrMarket proxies from its own LmsrFactory (`delphiFactory()`).
/// Quotes return `(tokens, outcomeNewExp, newExpSum)` as Delphi's LMSR gateway does; spot prices are the
/// softmax prices (= implied probabilities, 1e18 = 1); a winning share redeems for exactly one token.
/// Maths: src/core/markets/lmsr/lmsr.ts and src/core/markets/exp-ln.ts, bit for bit.
contract LmsrGateway is MarketGateway {
    constructor(address token, address oracleRelayer_)
        MarketGateway(token, oracleRelayer_, address(new LmsrMarket()))
    {}

    function _newFactory(address implementation, address token, uint256 scaler) internal override returns (address) {
        return address(new LmsrFactory(implementation, token, scaler));
    }

    function _lmsr(address marketProxy) internal view returns (LmsrMarket) {
        return LmsrMarket(address(_market(marketProxy)));
    }

    function quoteBuyExactOut(address marketProxy, uint256 outcomeIdx, uint256 sharesOut)
        external
        view
        returns (uint256 tokensIn, uint256 outcomeNewExp, uint256 newExpSum)
    {
        return _market(marketProxy).quoteBuy(outcomeIdx, sharesOut);
    }

    function quoteSellExactIn(address marketProxy, uint256 outcomeIdx, uint256 sharesIn)
        external
        view
        returns (uint256 tokensOut, uint256 outcomeNewExp, uint256 newExpSum)
    {
        return _market(marketProxy).quoteSell(outcomeIdx, sharesIn);
    }

    function getMarket(address marketProxy) external view returns (LmsrMarket.LmsrState memory) {
        return _lmsr(marketProxy).getMarket();
    }

    /// eᵢ of every outcome (WAD).
    function outcomeExps(address marketProxy) external view returns (uint256[] memory exps) {
        LmsrMarket m = _lmsr(marketProxy);
        exps = new uint256[](m.outcomeCount());
        for (uint256 i; i < exps.length; ++i) {
            exps[i] = m.outcomeExp(i);
        }
    }

    /// The creator's deposit for liquidity b over n outcomes: ⌈b·lnRatioUp(n·1e18, 1e18)/(1e27·scaler)⌉.
    function calculateInitialPool(uint256 b, uint256 outcomeCount) external view returns (uint256) {
        return FixedPointMath.mulDivUp(b, ExpLn.lnRatioUp(outcomeCount * 1e18, 1e18), 1e27 * TOKEN_DECIMAL_SCALER);
    }
}
