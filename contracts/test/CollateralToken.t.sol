// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestBase} from "./Vm.sol";
import {CollateralToken} from "../src/CollateralToken.sol";

contract CollateralTokenTest is TestBase {
    CollateralToken internal t;

    address internal constant MINTER = address(0x0A11CE);
    address internal constant ALICE = address(0xA1);
    address internal constant BOB = address(0xB0B);
    uint256 internal constant AMOUNT = 1_000e6;
    uint256 internal constant PERIOD = 1 days;

    function setUp() public {
        vm.warp(1_000_000);
        t = new CollateralToken("tabswarm USD", "tUSD", 6, AMOUNT, PERIOD, MINTER);
    }

    function test_metadata() public view {
        vm.assertEq(t.decimals(), 6, "decimals");
        vm.assertEq(t.symbol(), "tUSD", "symbol");
        vm.assertEq(t.FAUCET_AMOUNT(), AMOUNT, "faucet amount");
    }

    function test_faucetOncePerPeriod() public {
        vm.prank(ALICE);
        t.requestToken();
        vm.assertEq(t.balanceOf(ALICE), AMOUNT, "first request pays");
        vm.assertEq(t.nextRequestAt(ALICE), block.timestamp + PERIOD, "next request time");

        vm.warp(block.timestamp + PERIOD - 1);
        vm.expectRevert(abi.encodeWithSelector(CollateralToken.RequestTooOften.selector, 1_000_000 + PERIOD));
        vm.prank(ALICE);
        t.requestToken();

        vm.prank(BOB); // another address is not limited by Alice's request
        t.requestToken();

        vm.warp(1_000_000 + PERIOD);
        vm.prank(ALICE);
        t.requestToken();
        vm.assertEq(t.balanceOf(ALICE), 2 * AMOUNT, "second period pays again");
        vm.assertEq(t.totalSupply(), 3 * AMOUNT, "supply");
    }

    function test_onlyMinterMints() public {
        vm.expectRevert(abi.encodeWithSelector(CollateralToken.OnlyMinter.selector));
        vm.prank(ALICE);
        t.mint(ALICE, 1);
        vm.prank(MINTER);
        t.mint(ALICE, 5);
        vm.assertEq(t.balanceOf(ALICE), 5, "minted");
    }

    function test_transferAndAllowanceErrors() public {
        vm.prank(MINTER);
        t.mint(ALICE, 100);
        vm.expectRevert(abi.encodeWithSelector(CollateralToken.ERC20InsufficientBalance.selector, ALICE, 100, 101));
        vm.prank(ALICE);
        t.transfer(BOB, 101);
        vm.expectRevert(abi.encodeWithSelector(CollateralToken.ERC20InvalidReceiver.selector, address(0)));
        vm.prank(ALICE);
        t.transfer(address(0), 1);

        vm.prank(ALICE);
        t.approve(BOB, 40);
        vm.expectRevert(abi.encodeWithSelector(CollateralToken.ERC20InsufficientAllowance.selector, BOB, 40, 41));
        vm.prank(BOB);
        t.transferFrom(ALICE, BOB, 41);
        vm.prank(BOB);
        t.transferFrom(ALICE, BOB, 40);
        vm.assertEq(t.allowance(ALICE, BOB), 0, "allowance spent");
        vm.assertEq(t.balanceOf(BOB), 40, "bob");
        vm.assertEq(t.balanceOf(ALICE), 60, "alice");
    }

    function test_unlimitedAllowanceIsNotSpent() public {
        vm.prank(MINTER);
        t.mint(ALICE, 100);
        vm.prank(ALICE);
        t.approve(BOB, type(uint256).max);
        vm.prank(BOB);
        t.transferFrom(ALICE, BOB, 60);
        vm.assertEq(t.allowance(ALICE, BOB), type(uint256).max, "unlimited stays");
    }

    function testFuzz_transferConservesSupply(uint256 minted, uint256 sent) public {
        minted = bound(minted, 0, type(uint128).max);
        sent = bound(sent, 0, minted);
        vm.prank(MINTER);
        t.mint(ALICE, minted);
        vm.prank(ALICE);
        t.transfer(BOB, sent);
        vm.assertEq(t.balanceOf(ALICE) + t.balanceOf(BOB), t.totalSupply(), "conserved");
        vm.assertEq(t.balanceOf(BOB), sent, "received");
    }
}
