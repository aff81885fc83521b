// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestBase} from "./Vm.sol";
import {MarketTestBase} from "./MarketTestBase.sol";
import {DynamicParimutuelGateway} from "../src/DynamicParimutuelGateway.sol";
import {DpmMarket} from "../src/DpmMarket.sol";
import {FixedPointMath} from "../src/FixedPointMath.sol";
import {LmsrGateway} from "../src/LmsrGateway.sol";
import {LmsrMarket} from "../src/LmsrMarket.sol";
import {MarketBase} from "../src/MarketBase.sol";
import {MarketGateway} from "../src/MarketGateway.sol";

/// Random trades by three traders on one DPM and one LMSR market (the fuzzer calls these).
contract MarketHandler is TestBase {
    MarketGateway[2] internal gws;
    address[2] internal markets;
    address[3] internal actors = [address(0xA11CE), address(0xB0B), address(0xCA401)];
    uint256 public trades;

    constructor(DynamicParimutuelGateway dpm, address dpmMarket, LmsrGateway lmsr, address lmsrMarket) {
        gws[0] = dpm;
        gws[1] = lmsr;
        markets[0] = dpmMarket;
        markets[1] = lmsrMarket;
    }

    function buy(uint256 which, uint256 actor, uint256 outcome, uint256 shares) external {
        which = which % 2;
        address m = markets[which];
        outcome = outcome % MarketBase(m).outcomeCount();
        shares = bound(shares, 1e6, 500e18);
        vm.prank(actors[actor % 3]);
        try gws[which].buyExactOut(m, outcome, shares, type(uint256).max) {
            trades++;
        } catch {}
    }

    function sell(uint256 which, uint256 actor, uint256 outcome, uint256 fraction) external {
        which = which % 2;
        address m = markets[which];
        outcome = outcome % MarketBase(m).outcomeCount();
        address a = actors[actor % 3];
        uint256 held = MarketBase(m).balanceOf(a, outcome);
        if (held == 0) return;
        uint256 shares = bound(fraction, 1, held);
        vm.prank(a);
        try gws[which].sellExactIn(m, outcome, shares, 0) {
            trades++;
        } catch {}
    }
}

contract MarketInvariantsTest is MarketTestBase {
    MarketHandler internal handler;
    address internal dpmMarket;
    address internal lmsrMarket;

    function setUp() public override {
        super.setUp();
        dpmMarket = create(dpm6, 4, 3e18, 2e16, 50e6);
        lmsrMarket = create(lmsr6, 4, 20e18, 1e16, lmsr6.calculateInitialPool(20e18, 4));
        handler = new MarketHandler(dpm6, dpmMarket, lmsr6, lmsrMarket);
        address[3] memory actors = [ALICE, BOB, CAROL];
        for (uint256 i; i < 3; ++i) {
            fund(dpm6, dpmMarket, actors[i], 1e15);
            fund(lmsr6, lmsrMarket, actors[i], 1e15);
        }
    }

    function targetContracts() public view returns (address[] memory t) {
        t = new address[](1);
        t[0] = address(handler);
    }

    function invariant_collateralEqualsWhatIsOwed() public view {
        assertSolvent(dpmMarket);
        assertSolvent(lmsrMarket);
    }

    /// DPM: S = Σq², and the pool covers every holding at frozen prices (liquidation) and so any payout.
    function invariant_dpmPoolCoversAllShares() public view {
        DpmMarket m = DpmMarket(dpmMarket);
        DpmMarket.DpmState memory s = m.getMarket();
        uint256 sq;
        for (uint256 i; i < 4; ++i) {
            sq += m.totalSupply(i) * m.totalSupply(i);
        }
        vm.assertEq(s.sumTerm36, sq, "sumTerm36 == sum of squares");
        uint256 scaler = m.tokenScaler();
        vm.assertLe(
            FixedPointMath.mulDivDown(s.config.k, FixedPointMath.sqrtDown(sq), 1e18 * scaler), s.pool, "pool >= cost"
        );
    }

    /// LMSR: whichever outcome wins, its shares (one token each) are covered by the pool.
    function invariant_lmsrPoolCoversEveryOutcome() public view {
        LmsrMarket m = LmsrMarket(lmsrMarket);
        uint256 pool = m.pool();
        uint256 sum;
        for (uint256 i; i < 4; ++i) {
            vm.assertLe(m.totalSupply(i) / m.tokenScaler(), pool, "winners covered");
            sum += m.outcomeExp(i);
        }
        vm.assertEq(sum, m.expSum(), "E = sum of e_i");
    }
}
