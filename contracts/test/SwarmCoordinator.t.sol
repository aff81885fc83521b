// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestBase} from "./Vm.sol";
import {SwarmCoordinator} from "../src/SwarmCoordinator.sol";

contract SwarmCoordinatorTest is TestBase {
    SwarmCoordinator internal c;

    address internal constant OWNER = address(0x0A11CE);
    address internal constant ALICE = address(0xA1);
    address internal constant BOB = address(0xB0B);
    address internal constant MALLORY = address(0xBAD);
    uint256 internal constant GENESIS = 1_000_000;
    uint256 internal constant ROUND = 600;

    string internal constant PEER_A = "12D3KooWRkGLz4YbVmrsWK75VjFTs8NvaBu42xhAmQaP4KeJpw1L";
    string internal constant PEER_B = "12D3KooWJWoaqZhDaoEFshF7Rh1bpY9ohihFhzcW6d69Lr2NASuq";
    bytes32 internal constant PK_A = bytes32(uint256(0xA));
    bytes32 internal constant PK_B = bytes32(uint256(0xB));

    function setUp() public {
        vm.warp(GENESIS);
        c = new SwarmCoordinator(OWNER, GENESIS, ROUND);
    }

    /// a stand-in public key of 32 bytes (the contract stores whatever bytes it is given)
    function key(bytes32 pk) internal pure returns (bytes memory) {
        return abi.encodePacked(pk);
    }

    function sig(uint256 seed) internal pure returns (bytes memory) {
        return abi.encodePacked(keccak256(abi.encode(seed, 1)), keccak256(abi.encode(seed, 2)));
    }

    function register(address wallet, string memory peerId, bytes32 pk) internal {
        vm.prank(wallet);
        c.registerPeer(peerId, key(pk), sig(uint256(pk)));
    }

    function oneWinner(string memory peerId) internal pure returns (string[] memory w) {
        w = new string[](1);
        w[0] = peerId;
    }

    // ------------------------------------------------------------ registration

    function test_registerStoresClaim() public {
        bytes memory s = sig(7);
        vm.expectEmit(true, true, false, true);
        emit SwarmCoordinator.PeerRegistered(ALICE, keccak256(bytes(PEER_A)), PEER_A, key(PK_A), s, 0);
        vm.prank(ALICE);
        c.registerPeer(PEER_A, key(PK_A), s);

        SwarmCoordinator.Claim memory claim = c.getClaim(PEER_A, ALICE);
        vm.assertEq(claim.peerId, PEER_A, "peerId");
        vm.assertEq(claim.wallet, ALICE, "wallet");
        vm.assertEq(claim.publicKey, key(PK_A), "publicKey");
        vm.assertEq(claim.signature, s, "signature");
        vm.assertEq(uint256(claim.registeredAt), GENESIS, "registeredAt");
        vm.assertTrue(c.isRegistered(PEER_A, ALICE), "isRegistered");
        vm.assertFalse(c.isRegistered(PEER_A, BOB), "not for bob");
        vm.assertEq(c.claimCount(), 1, "claimCount");
    }

    function test_reRegisterSameWalletReplacesProof() public {
        register(ALICE, PEER_A, PK_A);
        vm.warp(GENESIS + 5);
        vm.prank(ALICE);
        c.registerPeer(PEER_A, key(PK_B), sig(99));
        vm.assertEq(c.claimCount(), 1, "no duplicate claim");
        vm.assertEq(c.getPeerClaimCount(PEER_A), 1, "no duplicate in peer list");
        vm.assertEq(c.getWalletPeerCount(ALICE), 1, "no duplicate in wallet list");
        SwarmCoordinator.Claim memory claim = c.getClaim(PEER_A, ALICE);
        vm.assertEq(claim.publicKey, key(PK_B), "replaced key");
        vm.assertEq(claim.signature, sig(99), "replaced signature");
        vm.assertEq(uint256(claim.registeredAt), GENESIS + 5, "new time");
    }

    function test_oneWalletManyPeersPaged() public {
        for (uint256 i = 0; i < 7; i++) {
            register(ALICE, string(abi.encodePacked("peer-", bytes1(uint8(65 + i)))), bytes32(i + 1));
        }
        vm.assertEq(c.getWalletPeerCount(ALICE), 7, "count");
        SwarmCoordinator.Claim[] memory page = c.getWalletPeers(ALICE, 5, 10);
        vm.assertEq(page.length, 2, "last page");
        vm.assertEq(page[0].peerId, "peer-F", "order");
        vm.assertEq(page[1].peerId, "peer-G", "order");
        vm.assertEq(c.getWalletPeers(ALICE, 7, 10).length, 0, "past the end");
        vm.assertEq(c.getWalletPeers(ALICE, 0, 3).length, 3, "first page");
        address[] memory eoas = new address[](2);
        eoas[0] = ALICE;
        eoas[1] = BOB;
        string[][] memory ids = c.getPeerId(eoas);
        vm.assertEq(ids[0].length, 7, "getPeerId alice");
        vm.assertEq(ids[1].length, 0, "getPeerId bob");
    }

    /// A forged claim (someone else's key, junk proof) never blocks the key's owner.
    function test_forgedClaimDoesNotBlockOwner() public {
        vm.prank(MALLORY);
        c.registerPeer(PEER_A, key(PK_A), sig(666));
        // first-come does not win: the owner registers, submits and votes as usual
        register(ALICE, PEER_A, PK_A);
        vm.prank(MALLORY);
        c.submitReward(0, PEER_A, 100, bytes32("mallory"));
        vm.prank(ALICE);
        c.submitReward(0, PEER_A, 3, bytes32("alice"));
        vm.prank(MALLORY);
        c.submitWinners(0, oneWinner(PEER_B), PEER_A);
        vm.prank(ALICE);
        c.submitWinners(0, oneWinner(PEER_B), PEER_A);

        vm.assertEq(c.getPeerClaimCount(PEER_A), 2, "two claims");
        SwarmCoordinator.Claim[] memory claims = c.getPeerClaims(PEER_A, 0, 10);
        vm.assertEq(claims[0].wallet, MALLORY, "first claim");
        vm.assertEq(claims[1].wallet, ALICE, "second claim");
        vm.assertEq(c.getTotalRewards(PEER_A, ALICE), 3, "alice's total is hers");
        vm.assertEq(c.getTotalRewards(PEER_A, MALLORY), 100, "mallory's total is separate");
        string[] memory ids = new string[](1);
        ids[0] = PEER_A;
        address[][] memory eoas = c.getEoa(ids);
        vm.assertEq(eoas[0].length, 2, "getEoa lists both claimants");
    }

    function test_registerRejectsBadInput() public {
        vm.startPrank(ALICE);
        vm.expectRevert(SwarmCoordinator.InvalidPeerId.selector);
        c.registerPeer("", key(PK_A), sig(1));
        bytes memory long = new bytes(129);
        for (uint256 i = 0; i < long.length; i++) long[i] = "x";
        vm.expectRevert(SwarmCoordinator.InvalidPeerId.selector);
        c.registerPeer(string(long), key(PK_A), sig(1));
        vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.InvalidPublicKeyLength.selector, 0));
        c.registerPeer(PEER_A, "", sig(1));
        vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.InvalidPublicKeyLength.selector, 1025));
        c.registerPeer(PEER_A, new bytes(1025), sig(1));
        vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.InvalidSignatureLength.selector, 0));
        c.registerPeer(PEER_A, key(PK_A), "");
        vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.InvalidSignatureLength.selector, 1025));
        c.registerPeer(PEER_A, key(PK_A), new bytes(1025));
        vm.stopPrank();
        vm.assertEq(c.claimCount(), 0, "nothing stored");
    }

    function testFuzz_registrationRules(address wallet, uint256 pkLen, uint256 sigLen, uint8 idLen) public {
        pkLen = bound(pkLen, 0, 1100);
        sigLen = bound(sigLen, 0, 1100);
        bytes memory id = new bytes(idLen);
        for (uint256 i = 0; i < id.length; i++) id[i] = bytes1(uint8(97 + (i % 26)));
        bool idOk = idLen > 0 && idLen <= 128;
        bool pkOk = pkLen > 0 && pkLen <= 1024;
        bool ok = idOk && pkOk && sigLen > 0 && sigLen <= 1024;
        if (!ok) {
            if (!idOk) vm.expectRevert(SwarmCoordinator.InvalidPeerId.selector);
            else if (!pkOk) vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.InvalidPublicKeyLength.selector, pkLen));
            else vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.InvalidSignatureLength.selector, sigLen));
        }
        vm.prank(wallet);
        c.registerPeer(string(id), new bytes(pkLen), new bytes(sigLen));
        vm.assertEq(c.isRegistered(string(id), wallet), ok, "registered iff valid");
        vm.assertEq(c.getWalletPeerCount(wallet), ok ? 1 : 0, "wallet list");
    }

    function testFuzz_claimsArePerWallet(address a, address b, bytes32 pkA, bytes32 pkB) public {
        vm.assume(a != b);
        vm.prank(a);
        c.registerPeer(PEER_A, key(pkA), sig(1));
        vm.prank(b);
        c.registerPeer(PEER_A, key(pkB), sig(2));
        vm.assertEq(c.getPeerClaimCount(PEER_A), 2, "both claims kept");
        vm.assertEq(c.getClaim(PEER_A, a).publicKey, key(pkA), "a's key untouched");
        vm.assertEq(c.getClaim(PEER_A, b).publicKey, key(pkB), "b's key");
        vm.prank(a);
        c.registerPeer(PEER_A, key(pkA), sig(3));
        vm.assertEq(c.getClaim(PEER_A, b).signature, sig(2), "b's proof untouched by a");
    }

    // ------------------------------------------------------------ the signed message

    function test_registrationDigestBindsChainContractAndWallet() public {
        bytes32 base = c.registrationDigest(31337, address(c), ALICE, PEER_A);
        vm.assertTrue(base != c.registrationDigest(685685, address(c), ALICE, PEER_A), "chain");
        vm.assertTrue(base != c.registrationDigest(31337, address(this), ALICE, PEER_A), "contract");
        vm.assertTrue(base != c.registrationDigest(31337, address(c), BOB, PEER_A), "wallet");
        vm.assertTrue(base != c.registrationDigest(31337, address(c), ALICE, PEER_B), "peer");
        vm.chainId(31337);
        vm.assertEq(c.registrationMessage(ALICE, PEER_A), base, "message on 31337");
        vm.chainId(685685);
        vm.assertTrue(c.registrationMessage(ALICE, PEER_A) != base, "message on another chain");
    }

    /// Same vector as src/chain/registration-message.test.ts (viem), so both sides hash alike.
    function test_registrationDigestVector() public view {
        bytes32 digest = c.registrationDigest(
            31337,
            0x5FbDB2315678afecb367f032d93F642f64180aa3,
            0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266,
            PEER_A
        );
        vm.assertEq(digest, DIGEST_VECTOR, "viem vector");
    }

    bytes32 internal constant DIGEST_VECTOR = 0x5500940b8f25fd882595d1fc101b2a0bfcbab80f28b026424aaa292ff0771fd5;

    // ------------------------------------------------------------ rewards

    function test_rewardOncePerRound() public {
        register(ALICE, PEER_A, PK_A);
        vm.expectEmit(true, true, false, true);
        emit SwarmCoordinator.RewardSubmitted(ALICE, 0, PEER_A, 5, bytes32("tip0"));
        vm.prank(ALICE);
        c.submitReward(0, PEER_A, 5, bytes32("tip0"));
        vm.prank(ALICE);
        vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.RewardAlreadySubmitted.selector, 0, PEER_A, ALICE));
        c.submitReward(0, PEER_A, 6, bytes32("tip1"));

        vm.prank(ALICE);
        vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.InvalidRoundNumber.selector, 1, 0));
        c.submitReward(1, PEER_A, 6, bytes32("tip1"));

        vm.warp(GENESIS + ROUND);
        vm.prank(ALICE);
        c.submitReward(1, PEER_A, -2, bytes32("tip1"));
        vm.assertEq(c.getTotalRewards(PEER_A, ALICE), 3, "total");
        vm.assertTrue(c.hasSubmittedReward(1, PEER_A, ALICE), "submitted");
        vm.assertFalse(c.hasSubmittedReward(2, PEER_A, ALICE), "not submitted");
        SwarmCoordinator.RoundReward memory r = c.getRoundReward(0, PEER_A, ALICE);
        vm.assertEq(r.reward, 5, "round reward");
        vm.assertEq(r.chainTip, bytes32("tip0"), "chain tip");
        vm.assertEq(c.getClaim(PEER_A, ALICE).rewardCount, 2, "reward count");
    }

    function test_rewardNeedsOwnClaim() public {
        register(ALICE, PEER_A, PK_A);
        vm.prank(BOB);
        vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.PeerNotRegistered.selector, PEER_A, BOB));
        c.submitReward(0, PEER_A, 1, bytes32(0));
    }

    function test_submissionsBeforeGenesisRevert() public {
        SwarmCoordinator later = new SwarmCoordinator(OWNER, GENESIS + 100, ROUND);
        vm.prank(ALICE);
        later.registerPeer(PEER_A, key(PK_A), sig(1));
        vm.assertEq(later.currentRound(), 0, "round 0 before genesis");
        vm.prank(ALICE);
        vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.SwarmNotStarted.selector, GENESIS + 100));
        later.submitReward(0, PEER_A, 1, bytes32(0));
    }

    function testFuzz_rewardOncePerRound(uint256 elapsed, uint256 round, int256 reward, bytes32 tip) public {
        elapsed = bound(elapsed, 0, 1e12);
        vm.warp(GENESIS + elapsed);
        uint256 current = elapsed / ROUND;
        register(ALICE, PEER_A, PK_A);
        if (round > current) {
            vm.prank(ALICE);
            vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.InvalidRoundNumber.selector, round, current));
            c.submitReward(round, PEER_A, reward, tip);
            return;
        }
        vm.prank(ALICE);
        c.submitReward(round, PEER_A, reward, tip);
        vm.prank(ALICE);
        vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.RewardAlreadySubmitted.selector, round, PEER_A, ALICE));
        c.submitReward(round, PEER_A, reward, tip);
        vm.assertEq(c.getTotalRewards(PEER_A, ALICE), reward, "total");
        vm.assertEq(c.getRoundReward(round, PEER_A, ALICE).chainTip, tip, "tip");
    }

    // ------------------------------------------------------------ winners

    function test_winnersOncePerRoundAndLeaderboard() public {
        register(ALICE, PEER_A, PK_A);
        register(BOB, PEER_B, PK_B);
        string[] memory w = new string[](2);
        w[0] = PEER_A;
        w[1] = PEER_B;
        vm.prank(ALICE);
        c.submitWinners(0, w, PEER_A);
        vm.prank(ALICE);
        vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.WinnerAlreadyVoted.selector, 0, PEER_A, ALICE));
        c.submitWinners(0, w, PEER_A);
        vm.prank(BOB);
        c.submitWinners(0, oneWinner(PEER_A), PEER_B);

        vm.assertEq(c.getTotalWins(PEER_A), 2, "wins A");
        vm.assertEq(c.getTotalWins(PEER_B), 1, "wins B");
        vm.assertEq(c.uniqueVotedPeers(), 2, "voted peers");
        (string[] memory ids, uint256[] memory wins) = c.winnerLeaderboard(1, 5);
        vm.assertEq(ids.length, 1, "page");
        vm.assertEq(ids[0], PEER_B, "order");
        vm.assertEq(wins[0], 1, "wins");
        vm.assertEq(c.getVoterVotes(0, PEER_A, ALICE).length, 2, "votes stored");
        vm.assertTrue(c.hasVoted(0, PEER_B, BOB), "bob voted");
        vm.assertEq(c.getClaim(PEER_A, ALICE).voteCount, 1, "vote count");
    }

    function test_winnersRejectBadVotes() public {
        register(ALICE, PEER_A, PK_A);
        vm.startPrank(ALICE);
        vm.expectRevert(SwarmCoordinator.InvalidVote.selector);
        c.submitWinners(0, new string[](0), PEER_A);
        string[] memory dup = new string[](2);
        dup[0] = PEER_B;
        dup[1] = PEER_B;
        vm.expectRevert(SwarmCoordinator.InvalidVote.selector);
        c.submitWinners(0, dup, PEER_A);
        vm.expectRevert(SwarmCoordinator.InvalidVote.selector);
        c.submitWinners(0, new string[](1), PEER_A);
        vm.expectRevert(SwarmCoordinator.InvalidVote.selector);
        c.submitWinners(0, new string[](33), PEER_A);
        vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.InvalidRoundNumber.selector, 1, 0));
        c.submitWinners(1, oneWinner(PEER_B), PEER_A);
        vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.PeerNotRegistered.selector, PEER_B, ALICE));
        c.submitWinners(0, oneWinner(PEER_A), PEER_B);
        vm.stopPrank();
        vm.assertFalse(c.hasVoted(0, PEER_A, ALICE), "no vote recorded");
    }

    function testFuzz_winnersOncePerRound(uint256 round, uint8 n) public {
        n = uint8(bound(n, 1, 32));
        vm.warp(GENESIS + 1000 * ROUND);
        round = bound(round, 0, 1000);
        register(ALICE, PEER_A, PK_A);
        string[] memory w = new string[](n);
        for (uint256 i = 0; i < n; i++) w[i] = string(abi.encodePacked("w", bytes1(uint8(65 + i))));
        vm.prank(ALICE);
        c.submitWinners(round, w, PEER_A);
        vm.prank(ALICE);
        vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.WinnerAlreadyVoted.selector, round, PEER_A, ALICE));
        c.submitWinners(round, w, PEER_A);
        vm.assertEq(c.uniqueVotedPeers(), n, "voted peers");
        vm.assertEq(c.getTotalWins(w[n - 1]), 1, "one win each");
    }

    // ------------------------------------------------------------ bootnodes and roles

    function test_bootnodeManagerRole() public {
        string[] memory nodes = new string[](3);
        nodes[0] = "/ip4/127.0.0.1/tcp/9001/ws/p2p/A";
        nodes[1] = "/ip4/127.0.0.1/tcp/9002/ws/p2p/B";
        nodes[2] = "/ip4/127.0.0.1/tcp/9003/ws/p2p/C";
        vm.prank(OWNER);
        c.addBootnodes(nodes);
        vm.assertEq(c.getBootnodesCount(), 3, "added");
        vm.prank(OWNER);
        c.removeBootnode(0);
        string[] memory left = c.getBootnodes();
        vm.assertEq(left.length, 2, "removed");
        vm.assertEq(left[0], nodes[2], "last moved into the gap");
        vm.prank(OWNER);
        vm.expectRevert(abi.encodeWithSelector(SwarmCoordinator.InvalidBootnodeIndex.selector, 2, 2));
        c.removeBootnode(2);
        vm.prank(OWNER);
        vm.expectRevert(SwarmCoordinator.InvalidBootnode.selector);
        c.addBootnodes(new string[](1));

        bytes32 role = c.BOOTNODE_MANAGER_ROLE();
        vm.prank(BOB);
        vm.expectRevert(SwarmCoordinator.OnlyOwner.selector);
        c.grantRole(role, BOB);
        vm.prank(OWNER);
        c.grantRole(role, BOB);
        vm.prank(BOB);
        c.clearBootnodes();
        vm.assertEq(c.getBootnodesCount(), 0, "cleared");
        vm.prank(OWNER);
        c.revokeRole(role, BOB);
        vm.prank(BOB);
        vm.expectRevert(SwarmCoordinator.OnlyBootnodeManager.selector);
        c.clearBootnodes();
    }

    function testFuzz_onlyManagersTouchBootnodes(address caller) public {
        vm.assume(caller != OWNER);
        string[] memory nodes = new string[](1);
        nodes[0] = "/dns4/relay.example/tcp/443/wss";
        vm.startPrank(caller);
        vm.expectRevert(SwarmCoordinator.OnlyBootnodeManager.selector);
        c.addBootnodes(nodes);
        vm.expectRevert(SwarmCoordinator.OnlyBootnodeManager.selector);
        c.removeBootnode(0);
        vm.expectRevert(SwarmCoordinator.OnlyBootnodeManager.selector);
        c.clearBootnodes();
        vm.expectRevert(SwarmCoordinator.OnlyOwner.selector);
        c.grantRole(bytes32(0), caller);
        vm.stopPrank();
    }

    // ------------------------------------------------------------ round clock

    function test_constructorRejectsZeroRoundLength() public {
        vm.expectRevert(SwarmCoordinator.InvalidRoundLength.selector);
        new SwarmCoordinator(OWNER, GENESIS, 0);
        SwarmCoordinator now_ = new SwarmCoordinator(OWNER, 0, ROUND);
        vm.assertEq(now_.genesisTime(), GENESIS, "genesis 0 = deployment time");
    }

    function testFuzz_roundClock(uint256 genesis, uint256 length, uint256 t) public {
        genesis = bound(genesis, 1, 1e12);
        length = bound(length, 1, 1e9);
        t = bound(t, 0, 2e12);
        SwarmCoordinator k = new SwarmCoordinator(OWNER, genesis, length);
        vm.warp(t);
        uint256 r = k.currentRound();
        if (t < genesis) {
            vm.assertEq(r, 0, "before genesis");
        } else {
            vm.assertEq(r, (t - genesis) / length, "formula");
            vm.assertTrue(k.roundStartTime(r) <= t && t < k.roundStartTime(r + 1), "t inside round r");
        }
    }
}
