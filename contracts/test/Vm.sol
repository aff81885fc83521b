// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The few forge cheatcodes these tests use (forge-std is not installed: forge runs offline).
interface Vm {
    function prank(address sender) external;
    function startPrank(address sender) external;
    function stopPrank() external;
    function warp(uint256 timestamp) external;
    function chainId(uint256 newChainId) external;
    function assume(bool condition) external pure;
    function addr(uint256 privateKey) external pure returns (address);
    function sign(uint256 privateKey, bytes32 digest) external pure returns (uint8 v, bytes32 r, bytes32 s);
    function expectRevert(bytes calldata revertData) external;
    function expectRevert(bytes4 revertData) external;
    function expectRevert() external;
    function assertLe(uint256 left, uint256 right, string calldata message) external pure;
    function assertGe(uint256 left, uint256 right, string calldata message) external pure;
    function assertLt(uint256 left, uint256 right, string calldata message) external pure;
    function assertGt(uint256 left, uint256 right, string calldata message) external pure;
    function expectEmit(bool checkTopic1, bool checkTopic2, bool checkTopic3, bool checkData) external;
    function assertTrue(bool condition, string calldata message) external pure;
    function assertFalse(bool condition, string calldata message) external pure;
    function assertEq(bool left, bool right, string calldata message) external pure;
    function assertEq(uint256 left, uint256 right, string calldata message) external pure;
    function assertEq(int256 left, int256 right, string calldata message) external pure;
    function assertEq(address left, address right, string calldata message) external pure;
    function assertEq(bytes32 left, bytes32 right, string calldata message) external pure;
    function assertEq(bytes calldata left, bytes calldata right, string calldata message) external pure;
    function assertEq(string calldata left, string calldata right, string calldata message) external pure;
}

abstract contract TestBase {
    Vm internal constant vm = Vm(0x7109709ECfa91a80626fF3989D68f67F5b1DD12D);

    /// maps x into [min, max] (forge-std's bound, simplified)
    function bound(uint256 x, uint256 min, uint256 max) internal pure returns (uint256) {
        if (max == type(uint256).max && min == 0) return x;
        return min + (x % (max - min + 1));
    }
}
