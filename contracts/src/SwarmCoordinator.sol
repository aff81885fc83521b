// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title SwarmCoordinator
/// @notice tabswarm's coordinator: peer registration (proof of peer-key control), bootnodes, a round
/// clock derived from genesis time and round length, per-round rewards and winner votes, paged reads.
/// Function names follow RL Swarm's SwarmCoordinator where they fit.
///
/// Peer keys are libp2p keys (Ed25519 for tabs, RSA for identities imported from RL Swarm's swarm.pem),
/// which the EVM cannot verify cheaply. A registration is therefore a *claim* keyed by (peerId, wallet)
/// that stores the peer's public key (libp2p protobuf encoding) and its signature over
/// `registrationDigest(chainid, coordinator, wallet, peerId)`. Readers verify claims off-chain (the
/// public key must hash to the peer id and the signature must verify) and treat the others as unverified.
/// A claim never blocks another wallet's claim of the same peer id, so a forged claim cannot block the
/// key's owner, and everything a claim does (rewards, votes) is recorded per claim so readers can
/// leave unverified claims out.
contract SwarmCoordinator {
    // ---------------------------------------------------------------- types

    struct Claim {
        string peerId;
        address wallet;
        bytes publicKey; // libp2p protobuf-encoded public key (Ed25519, RSA, secp256k1)
        bytes signature; // the peer key's signature over registrationDigest(...)
        uint64 registeredAt; // block timestamp of the latest (re-)registration
        int256 totalRewards;
        uint256 rewardCount; // rounds with a submitted reward
        uint256 voteCount; // rounds with submitted winners
    }

    struct RoundReward {
        bool submitted;
        int256 reward;
        bytes32 chainTip;
    }

    // ---------------------------------------------------------------- constants

    bytes32 public constant OWNER_ROLE = keccak256("OWNER_ROLE");
    bytes32 public constant BOOTNODE_MANAGER_ROLE = keccak256("BOOTNODE_MANAGER_ROLE");
    string public constant REGISTRATION_DOMAIN = "tabswarm-register-v1";
    uint256 public constant MAX_PEER_ID_LENGTH = 128;
    /// @notice an RSA-4096 key in libp2p's protobuf encoding is ~550 bytes; Ed25519 is 36
    uint256 public constant MAX_PUBLIC_KEY_LENGTH = 1024;
    /// @notice an RSA-4096 signature is 512 bytes; Ed25519 is 64
    uint256 public constant MAX_SIGNATURE_LENGTH = 1024;
    uint256 public constant MAX_WINNERS = 32;
    uint256 public constant MAX_PAGE = 500;

    // ---------------------------------------------------------------- errors

    error OnlyOwner();
    error OnlyBootnodeManager();
    error InvalidRoundLength();
    error InvalidPeerId();
    error InvalidPublicKeyLength(uint256 length);
    error InvalidSignatureLength(uint256 length);
    error PeerNotRegistered(string peerId, address wallet);
    error SwarmNotStarted(uint256 genesisTime);
    error InvalidRoundNumber(uint256 round, uint256 currentRound);
    error RewardAlreadySubmitted(uint256 round, string peerId, address wallet);
    error WinnerAlreadyVoted(uint256 round, string peerId, address wallet);
    error InvalidVote();
    error InvalidBootnodeIndex(uint256 index, uint256 count);
    error InvalidBootnode();
    error ClaimIndexOutOfBounds(uint256 index, uint256 count);

    // ---------------------------------------------------------------- events

    event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender);
    event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender);
    event PeerRegistered(
        address indexed eoa,
        bytes32 indexed peerIdHash,
        string peerId,
        bytes publicKey,
        bytes signature,
        uint256 claimIndex
    );
    event RewardSubmitted(
        address indexed account,
        uint256 indexed round,
        string peerId,
        int256 reward,
        bytes32 chainTip
    );
    event CumulativeRewardsUpdated(address indexed account, string peerId, int256 totalRewards);
    event WinnerSubmitted(address indexed account, string peerId, uint256 indexed round, string[] winners);
    event BootnodesAdded(address indexed manager, uint256 count);
    event BootnodeRemoved(address indexed manager, uint256 index);
    event AllBootnodesCleared(address indexed manager);

    // ---------------------------------------------------------------- storage

    uint256 public immutable genesisTime;
    uint256 public immutable roundLength;

    mapping(bytes32 role => mapping(address account => bool)) private _roles;

    Claim[] private _claims;
    /// keccak256(abi.encode(peerId, wallet)) => claim index + 1
    mapping(bytes32 claimKey => uint256) private _claimIndexPlusOne;
    /// keccak256(bytes(peerId)) => claim indices
    mapping(bytes32 peerIdHash => uint256[]) private _claimsOfPeer;
    mapping(address wallet => uint256[]) private _claimsOfWallet;

    mapping(uint256 round => mapping(uint256 claimIndex => RoundReward)) private _rewards;
    mapping(uint256 round => mapping(uint256 claimIndex => string[])) private _votes;
    mapping(uint256 round => mapping(uint256 claimIndex => bool)) private _voted;

    /// winner peer id hash => total wins (votes received, from any claim)
    mapping(bytes32 peerIdHash => uint256) private _totalWins;
    string[] private _votedPeers;
    mapping(bytes32 peerIdHash => bool) private _isVotedPeer;

    string[] private _bootnodes;

    // ---------------------------------------------------------------- construction, roles

    /// @param owner receives OWNER_ROLE and BOOTNODE_MANAGER_ROLE
    /// @param genesisTime_ start of round 0 (unix seconds); 0 means the deployment block's timestamp
    /// @param roundLength_ seconds per round, > 0
    constructor(address owner, uint256 genesisTime_, uint256 roundLength_) {
        if (roundLength_ == 0) revert InvalidRoundLength();
        genesisTime = genesisTime_ == 0 ? block.timestamp : genesisTime_;
        roundLength = roundLength_;
        _grant(OWNER_ROLE, owner);
        _grant(BOOTNODE_MANAGER_ROLE, owner);
    }

    modifier onlyOwner() {
        if (!_roles[OWNER_ROLE][msg.sender]) revert OnlyOwner();
        _;
    }

    modifier onlyBootnodeManager() {
        if (!_roles[BOOTNODE_MANAGER_ROLE][msg.sender]) revert OnlyBootnodeManager();
        _;
    }

    function hasRole(bytes32 role, address account) external view returns (bool) {
        return _roles[role][account];
    }

    function grantRole(bytes32 role, address account) external onlyOwner {
        _grant(role, account);
    }

    function revokeRole(bytes32 role, address account) external onlyOwner {
        if (_roles[role][account]) {
            _roles[role][account] = false;
            emit RoleRevoked(role, account, msg.sender);
        }
    }

    function _grant(bytes32 role, address account) private {
        if (!_roles[role][account]) {
            _roles[role][account] = true;
            emit RoleGranted(role, account, msg.sender);
        }
    }

    // ---------------------------------------------------------------- round clock

    /// @notice round r spans [genesisTime + r·roundLength, genesisTime + (r+1)·roundLength); 0 before genesis
    function currentRound() public view returns (uint256) {
        if (block.timestamp < genesisTime) return 0;
        return (block.timestamp - genesisTime) / roundLength;
    }

    function roundStartTime(uint256 round) external view returns (uint256) {
        return genesisTime + round * roundLength;
    }

    // ---------------------------------------------------------------- registration

    /// @notice the 32 bytes the peer key signs to prove control of `peerId` for `wallet`
    function registrationDigest(
        uint256 chainId,
        address coordinator,
        address wallet,
        string memory peerId
    ) public pure returns (bytes32) {
        return keccak256(abi.encode(REGISTRATION_DOMAIN, chainId, coordinator, wallet, peerId));
    }

    /// @notice the digest for this chain and this coordinator
    function registrationMessage(address wallet, string calldata peerId) external view returns (bytes32) {
        return registrationDigest(block.chainid, address(this), wallet, peerId);
    }

    /// @notice claim `peerId` for msg.sender with the peer key's proof. Registering again from the same
    /// wallet replaces the stored proof. Other wallets' claims of the same peer id are unaffected.
    function registerPeer(string calldata peerId, bytes calldata publicKey, bytes calldata signature) external {
        uint256 len = bytes(peerId).length;
        if (len == 0 || len > MAX_PEER_ID_LENGTH) revert InvalidPeerId();
        if (publicKey.length == 0 || publicKey.length > MAX_PUBLIC_KEY_LENGTH)
            revert InvalidPublicKeyLength(publicKey.length);
        if (signature.length == 0 || signature.length > MAX_SIGNATURE_LENGTH)
            revert InvalidSignatureLength(signature.length);

        bytes32 key = _claimKey(peerId, msg.sender);
        uint256 indexPlusOne = _claimIndexPlusOne[key];
        uint256 index;
        if (indexPlusOne == 0) {
            index = _claims.length;
            _claims.push();
            Claim storage fresh = _claims[index];
            fresh.peerId = peerId;
            fresh.wallet = msg.sender;
            _claimIndexPlusOne[key] = index + 1;
            _claimsOfPeer[keccak256(bytes(peerId))].push(index);
            _claimsOfWallet[msg.sender].push(index);
        } else {
            index = indexPlusOne - 1;
        }
        Claim storage claim = _claims[index];
        claim.publicKey = publicKey;
        claim.signature = signature;
        claim.registeredAt = uint64(block.timestamp);
        emit PeerRegistered(msg.sender, keccak256(bytes(peerId)), peerId, publicKey, signature, index);
    }

    function isRegistered(string calldata peerId, address wallet) external view returns (bool) {
        return _claimIndexPlusOne[_claimKey(peerId, wallet)] != 0;
    }

    function getClaim(string calldata peerId, address wallet) external view returns (Claim memory) {
        return _claims[_requireClaim(peerId, wallet)];
    }

    function claimCount() external view returns (uint256) {
        return _claims.length;
    }

    function getClaimAt(uint256 index) external view returns (Claim memory) {
        if (index >= _claims.length) revert ClaimIndexOutOfBounds(index, _claims.length);
        return _claims[index];
    }

    /// @notice all claims in registration order, paged; with totals, so this is the reward leaderboard
    /// (readers sort and drop unverified claims)
    function getClaims(uint256 start, uint256 count) external view returns (Claim[] memory page) {
        uint256 end = _pageEnd(start, count, _claims.length);
        page = new Claim[](end > start ? end - start : 0);
        for (uint256 i = start; i < end; i++) page[i - start] = _claims[i];
    }

    function getPeerClaimCount(string calldata peerId) external view returns (uint256) {
        return _claimsOfPeer[keccak256(bytes(peerId))].length;
    }

    /// @notice every wallet's claim of `peerId`, paged
    function getPeerClaims(
        string calldata peerId,
        uint256 start,
        uint256 count
    ) external view returns (Claim[] memory) {
        return _page(_claimsOfPeer[keccak256(bytes(peerId))], start, count);
    }

    function getWalletPeerCount(address wallet) external view returns (uint256) {
        return _claimsOfWallet[wallet].length;
    }

    /// @notice the claims (peers) of `wallet`, paged
    function getWalletPeers(address wallet, uint256 start, uint256 count) external view returns (Claim[] memory) {
        return _page(_claimsOfWallet[wallet], start, count);
    }

    /// @notice RL Swarm's getEoa, with claims: the wallets claiming each peer id (unverified included)
    function getEoa(string[] calldata peerIds) external view returns (address[][] memory eoas) {
        eoas = new address[][](peerIds.length);
        for (uint256 i = 0; i < peerIds.length; i++) {
            uint256[] storage indices = _claimsOfPeer[keccak256(bytes(peerIds[i]))];
            eoas[i] = new address[](indices.length);
            for (uint256 j = 0; j < indices.length; j++) eoas[i][j] = _claims[indices[j]].wallet;
        }
    }

    /// @notice RL Swarm's getPeerId: the peer ids each wallet claims
    function getPeerId(address[] calldata eoas) external view returns (string[][] memory peerIds) {
        peerIds = new string[][](eoas.length);
        for (uint256 i = 0; i < eoas.length; i++) {
            uint256[] storage indices = _claimsOfWallet[eoas[i]];
            peerIds[i] = new string[](indices.length);
            for (uint256 j = 0; j < indices.length; j++) peerIds[i][j] = _claims[indices[j]].peerId;
        }
    }

    // ---------------------------------------------------------------- rewards

    /// @notice msg.sender's claim of `peerId` reports its reward for `round` (≤ currentRound), once,
    /// with the tip of its step hash chain
    function submitReward(uint256 round, string calldata peerId, int256 reward, bytes32 chainTip) external {
        _requireRound(round);
        uint256 index = _requireClaim(peerId, msg.sender);
        RoundReward storage slot = _rewards[round][index];
        if (slot.submitted) revert RewardAlreadySubmitted(round, peerId, msg.sender);
        slot.submitted = true;
        slot.reward = reward;
        slot.chainTip = chainTip;
        Claim storage claim = _claims[index];
        claim.totalRewards += reward;
        claim.rewardCount += 1;
        emit RewardSubmitted(msg.sender, round, peerId, reward, chainTip);
        emit CumulativeRewardsUpdated(msg.sender, peerId, claim.totalRewards);
    }

    function hasSubmittedReward(uint256 round, string calldata peerId, address wallet) external view returns (bool) {
        uint256 indexPlusOne = _claimIndexPlusOne[_claimKey(peerId, wallet)];
        return indexPlusOne != 0 && _rewards[round][indexPlusOne - 1].submitted;
    }

    function getRoundReward(
        uint256 round,
        string calldata peerId,
        address wallet
    ) external view returns (RoundReward memory) {
        uint256 indexPlusOne = _claimIndexPlusOne[_claimKey(peerId, wallet)];
        if (indexPlusOne == 0) return RoundReward(false, 0, bytes32(0));
        return _rewards[round][indexPlusOne - 1];
    }

    function getTotalRewards(string calldata peerId, address wallet) external view returns (int256) {
        uint256 indexPlusOne = _claimIndexPlusOne[_claimKey(peerId, wallet)];
        return indexPlusOne == 0 ? int256(0) : _claims[indexPlusOne - 1].totalRewards;
    }

    // ---------------------------------------------------------------- winners

    /// @notice msg.sender's claim of `peerId` votes for this round's winners, once per round;
    /// winners are distinct, non-empty peer ids, at most MAX_WINNERS
    function submitWinners(uint256 round, string[] calldata winners, string calldata peerId) external {
        _requireRound(round);
        uint256 index = _requireClaim(peerId, msg.sender);
        if (_voted[round][index]) revert WinnerAlreadyVoted(round, peerId, msg.sender);
        uint256 n = winners.length;
        if (n == 0 || n > MAX_WINNERS) revert InvalidVote();
        bytes32[] memory hashes = new bytes32[](n);
        for (uint256 i = 0; i < n; i++) {
            uint256 len = bytes(winners[i]).length;
            if (len == 0 || len > MAX_PEER_ID_LENGTH) revert InvalidVote();
            bytes32 h = keccak256(bytes(winners[i]));
            for (uint256 j = 0; j < i; j++) if (hashes[j] == h) revert InvalidVote();
            hashes[i] = h;
        }
        _voted[round][index] = true;
        string[] storage stored = _votes[round][index];
        for (uint256 i = 0; i < n; i++) {
            stored.push(winners[i]);
            _totalWins[hashes[i]] += 1;
            if (!_isVotedPeer[hashes[i]]) {
                _isVotedPeer[hashes[i]] = true;
                _votedPeers.push(winners[i]);
            }
        }
        _claims[index].voteCount += 1;
        emit WinnerSubmitted(msg.sender, peerId, round, winners);
    }

    function hasVoted(uint256 round, string calldata peerId, address wallet) external view returns (bool) {
        uint256 indexPlusOne = _claimIndexPlusOne[_claimKey(peerId, wallet)];
        return indexPlusOne != 0 && _voted[round][indexPlusOne - 1];
    }

    /// @notice the winners voted by (peerId, wallet) in `round`
    function getVoterVotes(
        uint256 round,
        string calldata peerId,
        address wallet
    ) external view returns (string[] memory) {
        uint256 indexPlusOne = _claimIndexPlusOne[_claimKey(peerId, wallet)];
        if (indexPlusOne == 0) return new string[](0);
        return _votes[round][indexPlusOne - 1];
    }

    /// @notice votes received by `peerId` over all rounds (from any claim; readers who want verified
    /// voters only recount from WinnerSubmitted events or getVoterVotes)
    function getTotalWins(string calldata peerId) external view returns (uint256) {
        return _totalWins[keccak256(bytes(peerId))];
    }

    function uniqueVotedPeers() external view returns (uint256) {
        return _votedPeers.length;
    }

    /// @notice peers that received votes, in first-vote order, paged, with their wins (readers sort)
    function winnerLeaderboard(
        uint256 start,
        uint256 count
    ) external view returns (string[] memory peerIds, uint256[] memory wins) {
        uint256 end = _pageEnd(start, count, _votedPeers.length);
        uint256 n = end > start ? end - start : 0;
        peerIds = new string[](n);
        wins = new uint256[](n);
        for (uint256 i = 0; i < n; i++) {
            peerIds[i] = _votedPeers[start + i];
            wins[i] = _totalWins[keccak256(bytes(peerIds[i]))];
        }
    }

    // ---------------------------------------------------------------- bootnodes

    function getBootnodes() external view returns (string[] memory) {
        return _bootnodes;
    }

    function getBootnodesCount() external view returns (uint256) {
        return _bootnodes.length;
    }

    function addBootnodes(string[] calldata bootnodes) external onlyBootnodeManager {
        for (uint256 i = 0; i < bootnodes.length; i++) {
            if (bytes(bootnodes[i]).length == 0) revert InvalidBootnode();
            _bootnodes.push(bootnodes[i]);
        }
        emit BootnodesAdded(msg.sender, bootnodes.length);
    }

    /// @notice removes entry `index`; the last entry takes its place
    function removeBootnode(uint256 index) external onlyBootnodeManager {
        uint256 n = _bootnodes.length;
        if (index >= n) revert InvalidBootnodeIndex(index, n);
        if (index != n - 1) _bootnodes[index] = _bootnodes[n - 1];
        _bootnodes.pop();
        emit BootnodeRemoved(msg.sender, index);
    }

    function clearBootnodes() external onlyBootnodeManager {
        delete _bootnodes;
        emit AllBootnodesCleared(msg.sender);
    }

    // ---------------------------------------------------------------- internals

    function _claimKey(string memory peerId, address wallet) private pure returns (bytes32) {
        return keccak256(abi.encode(peerId, wallet));
    }

    function _requireClaim(string calldata peerId, address wallet) private view returns (uint256) {
        uint256 indexPlusOne = _claimIndexPlusOne[_claimKey(peerId, wallet)];
        if (indexPlusOne == 0) revert PeerNotRegistered(peerId, wallet);
        return indexPlusOne - 1;
    }

    function _requireRound(uint256 round) private view {
        if (block.timestamp < genesisTime) revert SwarmNotStarted(genesisTime);
        uint256 current = currentRound();
        if (round > current) revert InvalidRoundNumber(round, current);
    }

    function _pageEnd(uint256 start, uint256 count, uint256 length) private pure returns (uint256) {
        if (count > MAX_PAGE) count = MAX_PAGE;
        if (start >= length) return start;
        uint256 end = start + count;
        return end > length ? length : end;
    }

    function _page(uint256[] storage indices, uint256 start, uint256 count) private view returns (Claim[] memory page) {
        uint256 end = _pageEnd(start, count, indices.length);
        page = new Claim[](end > start ? end - start : 0);
        for (uint256 i = start; i < end; i++) page[i - start] = _claims[indices[i]];
    }
}
