// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestBase} from "./Vm.sol";
import {CollateralToken} from "../src/CollateralToken.sol";
import {DynamicParimutuelGateway} from "../src/DynamicParimutuelGateway.sol";
import {LmsrGateway} from "../src/LmsrGateway.sol";
import {MarketFactory} from "../src/MarketFactory.sol";
import {MarketGateway} from "../src/MarketGateway.sol";
import {MarketBase} from "../src/MarketBase.sol";
import {MarketConfig, MarketMetadata} from "../src/MarketTypes.sol";

/// Shared set-up of the market tests: 6- and 18-decimal collateral, a DPM and an LMSR gateway for each,
/// funded traders, market creation with the default windows.
abstract contract MarketTestBase is TestBase {
    address internal constant ORACLE = address(0x0AC1E);
    address internal constant CREATOR = address(0xC4EA7E);
    address internal constant ALICE = address(0xA11CE);
    address internal constant BOB = address(0xB0B);
    address internal constant CAROL = address(0xCA401);
    uint256 internal constant T0 = 1_000_000;
    uint256 internal constant TRADING_DEADLINE = T0 + 1 days;
    uint256 internal constant SETTLEMENT_DEADLINE = TRADING_DEADLINE + 2 hours;

    CollateralToken internal token6;
    CollateralToken internal token18;
    DynamicParimutuelGateway internal dpm6;
    DynamicParimutuelGateway internal dpm18;
    LmsrGateway internal lmsr6;
    LmsrGateway internal lmsr18;

    function setUp() public virtual {
        vm.warp(T0);
        token6 = new CollateralToken("Test USD", "TUSD", 6, 0, 1 days, address(this));
        token18 = new CollateralToken("Test 18", "T18", 18, 0, 1 days, address(this));
        dpm6 = new DynamicParimutuelGateway(address(token6), ORACLE);
        dpm18 = new DynamicParimutuelGateway(address(token18), ORACLE);
        lmsr6 = new LmsrGateway(address(token6), ORACLE);
        lmsr18 = new LmsrGateway(address(token18), ORACLE);
    }

    function tokenOf(MarketGateway gw) internal view returns (CollateralToken) {
        return CollateralToken(gw.TOKEN());
    }

    function factoryOf(MarketGateway gw) internal view returns (MarketFactory) {
        return MarketFactory(gw.delphiFactory());
    }

    function cfg(uint256 n, uint256 k, uint256 fee) internal pure returns (bytes memory) {
        return abi.encode(MarketConfig(n, k, fee, TRADING_DEADLINE, SETTLEMENT_DEADLINE));
    }

    function meta() internal pure returns (MarketMetadata memory) {
        return MarketMetadata("ipfs://question", keccak256("question"));
    }

    /// Creates a market as CREATOR (minting and approving the deposit to the factory).
    function create(MarketGateway gw, uint256 n, uint256 k, uint256 fee, uint256 deposit) internal returns (address m) {
        CollateralToken t = tokenOf(gw);
        MarketFactory f = factoryOf(gw);
        t.mint(CREATOR, deposit);
        vm.startPrank(CREATOR);
        t.approve(address(f), deposit);
        m = f.deployNewMarketProxy(deposit, meta(), cfg(n, k, fee));
        vm.stopPrank();
    }

    /// Mints `amount` to `who` and approves the market proxy for everything.
    function fund(MarketGateway gw, address m, address who, uint256 amount) internal {
        CollateralToken t = tokenOf(gw);
        t.mint(who, amount);
        vm.prank(who);
        t.approve(m, type(uint256).max);
    }

    function buy(MarketGateway gw, address m, address who, uint256 i, uint256 shares) internal returns (uint256) {
        vm.prank(who);
        return gw.buyExactOut(m, i, shares, type(uint256).max);
    }

    function sell(MarketGateway gw, address m, address who, uint256 i, uint256 shares) internal returns (uint256) {
        vm.prank(who);
        return gw.sellExactIn(m, i, shares, 0);
    }

    function err(bytes4 selector) internal pure returns (bytes memory) {
        return abi.encodeWithSelector(selector);
    }

    function err(bytes4 selector, uint256 a) internal pure returns (bytes memory) {
        return abi.encodeWithSelector(selector, a);
    }

    function err(bytes4 selector, uint256 a, uint256 b) internal pure returns (bytes memory) {
        return abi.encodeWithSelector(selector, a, b);
    }

    /// Collateral the market proxy holds must equal what it owes: pool + fees + refund, less what the
    /// creator has already been paid.
    function assertSolvent(address m) internal view {
        MarketBase mk = MarketBase(m);
        uint256 held = CollateralToken(mk.token()).balanceOf(m);
        bool creatorPaid = mk.marketStatus() == 2 || mk.creationSharesLiquidated();
        uint256 owed = mk.pool() + (creatorPaid ? 0 : mk.tradingFees() + mk.refund());
        vm.assertEq(held, owed, "collateral held == pool + unpaid creator dues");
    }
}
