// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Two-player blackjack duel escrow. Both players stake the same ETH, commit to secrets, reveal them into a
/// shared seed, draw from their own side of a deterministic shoe, commit and reveal how many cards they take,
/// and anyone settles. The house never plays: it only takes the rake from a decided duel, at most the rake its creator
/// accepted. A stalled duel pays no one for the stall: only a duel nobody joined pays a tip, to a caller other than its creator.
contract DuelEscrow {
    enum Phase { None, Open, RevealSecrets, CommitMoves, RevealMoves, Ready, Settled }
    enum Outcome { Pending, AWins, BWins, Tie, AWinsByTimeout, BWinsByTimeout, Refunded, Cancelled }

    struct Duel {
        address[2] players;
        bytes32[2] commitments;
        bytes32[2] secrets;
        bytes32[2] moveCommits;
        uint8[2] hits;
        bytes32 seed;
        uint256 stake;
        uint64 deadline;
        uint16 rakeBps;
        /// Bit 0: player A acted in the current phase; bit 1: player B.
        uint8 acted;
        Phase phase;
        Outcome outcome;
    }

    uint16 public constant MAX_RAKE_BPS = 1000;
    uint16 public constant TIP_BPS = 100;
    uint8 public constant MAX_HITS = 9;
    // Enough for smart-contract wallets; a recipient that needs more (or refuses) is paid through withdraw().
    uint256 private constant PAYOUT_GAS = 100_000;

    address public immutable owner;
    address public immutable feeRecipient;
    uint256 public immutable minStake;
    uint256 public immutable maxStake;
    uint64 public immutable joinWindow;
    uint64 public immutable actWindow;
    uint16 public rakeBps;
    uint256 public duelCount;
    mapping(uint256 => Duel) private duels;
    mapping(address => uint256) public owed;
    bool private locked;

    event Created(uint256 indexed duelId, address indexed playerA, uint256 stake, uint64 deadline);
    event Joined(uint256 indexed duelId, address indexed playerB, uint64 deadline);
    event SecretRevealed(uint256 indexed duelId, address indexed player);
    event Seeded(uint256 indexed duelId, bytes32 seed, uint64 deadline);
    event MovesCommitted(uint256 indexed duelId, address indexed player);
    event MovesRevealed(uint256 indexed duelId, address indexed player, uint8 hits);
    event Settled(uint256 indexed duelId, uint8 outcome, address winner, uint256 prize, uint256 rake);
    event TimedOut(uint256 indexed duelId, address indexed caller, uint256 tip);
    event RakeChanged(uint16 rakeBps);
    event Cancelled(uint256 indexed duelId);
    event PaymentDeferred(address indexed to, uint256 amount);
    event Withdrawn(address indexed to, uint256 amount);

    error RakeAboveCap(uint16 rakeBps, uint16 cap);
    error RakeAboveMax(uint16 rakeBps, uint16 maxRakeBps);
    error NotCreator();
    error BadLimits();
    error NotOwner();
    error Reentrant();
    error StakeOutOfRange(uint256 minStake, uint256 maxStake);
    error StakeMismatch(uint256 stake);
    error EmptyCommitment();
    error CommitmentCopied();
    error OwnDuel();
    error WrongPhase(Phase phase);
    error NotPlayer();
    error AlreadyActed();
    error TooLate(uint64 deadline);
    error TooEarly(uint64 deadline);
    error WrongSecret();
    error WrongMoves();
    error TooManyHits(uint8 max);
    error NothingOwed();

    modifier nonReentrant() {
        if (locked) revert Reentrant();
        locked = true;
        _;
        locked = false;
    }

    constructor(uint16 rakeBps_, address feeRecipient_, uint256 minStake_, uint256 maxStake_, uint64 joinWindow_, uint64 actWindow_) {
        if (rakeBps_ > MAX_RAKE_BPS) revert RakeAboveCap(rakeBps_, MAX_RAKE_BPS);
        if (minStake_ == 0 || minStake_ > maxStake_ || joinWindow_ == 0 || actWindow_ == 0 || feeRecipient_ == address(0)) revert BadLimits();
        owner = msg.sender;
        feeRecipient = feeRecipient_;
        rakeBps = rakeBps_;
        minStake = minStake_;
        maxStake = maxStake_;
        joinWindow = joinWindow_;
        actWindow = actWindow_;
    }

    /// Applies to duels created afterwards; each duel keeps the rake it was created with.
    function setRake(uint16 rakeBps_) external {
        if (msg.sender != owner) revert NotOwner();
        if (rakeBps_ > MAX_RAKE_BPS) revert RakeAboveCap(rakeBps_, MAX_RAKE_BPS);
        rakeBps = rakeBps_;
        emit RakeChanged(rakeBps_);
    }

    /// `maxRakeBps`: the most the creator accepts; a rake raised above it before this lands makes it revert.
    function create(bytes32 commitment, uint16 maxRakeBps) external payable returns (uint256 duelId) {
        if (rakeBps > maxRakeBps) revert RakeAboveMax(rakeBps, maxRakeBps);
        if (msg.value < minStake || msg.value > maxStake) revert StakeOutOfRange(minStake, maxStake);
        if (commitment == bytes32(0)) revert EmptyCommitment();
        duelId = ++duelCount;
        Duel storage d = duels[duelId];
        d.players[0] = msg.sender;
        d.commitments[0] = commitment;
        d.stake = msg.value;
        d.rakeBps = rakeBps;
        d.phase = Phase.Open;
        d.deadline = uint64(block.timestamp) + joinWindow;
        emit Created(duelId, msg.sender, msg.value, d.deadline);
    }

    function join(uint256 duelId, bytes32 commitment) external payable {
        Duel storage d = duels[duelId];
        if (d.phase != Phase.Open) revert WrongPhase(d.phase);
        if (block.timestamp > d.deadline) revert TooLate(d.deadline);
        if (msg.sender == d.players[0]) revert OwnDuel();
        if (msg.value != d.stake) revert StakeMismatch(d.stake);
        if (commitment == bytes32(0)) revert EmptyCommitment();
        if (commitment == d.commitments[0]) revert CommitmentCopied();
        d.players[1] = msg.sender;
        d.commitments[1] = commitment;
        advance(d, Phase.RevealSecrets);
        emit Joined(duelId, msg.sender, d.deadline);
    }

    /// Until someone joins, the creator may take the whole stake back.
    function cancel(uint256 duelId) external nonReentrant {
        Duel storage d = duels[duelId];
        if (d.phase != Phase.Open) revert WrongPhase(d.phase);
        if (msg.sender != d.players[0]) revert NotCreator();
        d.phase = Phase.Settled;
        d.outcome = Outcome.Cancelled;
        d.deadline = 0;
        emit Cancelled(duelId);
        emit Settled(duelId, uint8(Outcome.Cancelled), address(0), 0, 0);
        pay(d.players[0], d.stake);
    }

    /// Reveals the secret behind the player's commitment; the second reveal fixes the shared seed.
    function reveal(uint256 duelId, bytes32 secret) external {
        Duel storage d = duels[duelId];
        uint8 side = actingSide(d, Phase.RevealSecrets);
        if (keccak256(abi.encodePacked(secret)) != d.commitments[side]) revert WrongSecret();
        d.secrets[side] = secret;
        emit SecretRevealed(duelId, msg.sender);
        if (markActed(d, side)) {
            d.seed = keccak256(abi.encodePacked(d.secrets[0], d.secrets[1]));
            advance(d, Phase.CommitMoves);
            emit Seeded(duelId, d.seed, d.deadline);
        }
    }

    /// `moveCommit` is moveCommitment(duelId, player, hits, salt): bound to the duel and the player, so a copy is useless.
    function commitMoves(uint256 duelId, bytes32 moveCommit) external {
        Duel storage d = duels[duelId];
        uint8 side = actingSide(d, Phase.CommitMoves);
        if (moveCommit == bytes32(0)) revert EmptyCommitment();
        if (moveCommit == d.moveCommits[1 - side]) revert CommitmentCopied();
        d.moveCommits[side] = moveCommit;
        emit MovesCommitted(duelId, msg.sender);
        if (markActed(d, side)) advance(d, Phase.RevealMoves);
    }

    function revealMoves(uint256 duelId, uint8 hits, bytes32 salt) external {
        Duel storage d = duels[duelId];
        uint8 side = actingSide(d, Phase.RevealMoves);
        if (hits > MAX_HITS) revert TooManyHits(MAX_HITS);
        if (moveCommitment(duelId, msg.sender, hits, salt) != d.moveCommits[side]) revert WrongMoves();
        d.hits[side] = hits;
        emit MovesRevealed(duelId, msg.sender, hits);
        if (markActed(d, side)) {
            d.phase = Phase.Ready;
            d.acted = 0;
            d.deadline = 0;
        }
    }

    /// Permissionless: the better hand takes the pot minus the rake; a tie refunds both stakes in full.
    function settle(uint256 duelId) external nonReentrant {
        Duel storage d = duels[duelId];
        if (d.phase != Phase.Ready) revert WrongPhase(d.phase);
        uint256 a = score(d.seed, true, d.hits[0]);
        uint256 b = score(d.seed, false, d.hits[1]);
        d.phase = Phase.Settled;
        if (a == b) {
            d.outcome = Outcome.Tie;
            emit Settled(duelId, uint8(Outcome.Tie), address(0), 0, 0);
            pay(d.players[0], d.stake);
            pay(d.players[1], d.stake);
            return;
        }
        d.outcome = a > b ? Outcome.AWins : Outcome.BWins;
        payWinner(duelId, d, a > b ? 0 : 1);
    }

    /// After a phase's deadline anyone may end the duel. Nobody joined: the stake comes back to the creator, minus a 1%
    /// tip for a caller other than the creator. After a join no tip is paid, so neither a staller nor a stand-in it
    /// sends earns anything: the player who acted in the phase wins the pot minus the rake, and if neither did, both
    /// stakes come back in full.
    function timeout(uint256 duelId) external nonReentrant {
        Duel storage d = duels[duelId];
        Phase phase = d.phase;
        if (phase == Phase.None || phase == Phase.Ready || phase == Phase.Settled) revert WrongPhase(phase);
        if (block.timestamp <= d.deadline) revert TooEarly(d.deadline);
        uint8 acted = d.acted;
        d.phase = Phase.Settled;
        d.deadline = 0;
        if (phase == Phase.Open) {
            uint256 tip = msg.sender == d.players[0] ? 0 : (d.stake * TIP_BPS) / 10_000;
            d.outcome = Outcome.Refunded;
            emit TimedOut(duelId, msg.sender, tip);
            emit Settled(duelId, uint8(Outcome.Refunded), address(0), 0, 0);
            pay(msg.sender, tip);
            pay(d.players[0], d.stake - tip);
            return;
        }
        emit TimedOut(duelId, msg.sender, 0);
        if (acted == 0) {
            d.outcome = Outcome.Refunded;
            emit Settled(duelId, uint8(Outcome.Refunded), address(0), 0, 0);
            pay(d.players[0], d.stake);
            pay(d.players[1], d.stake);
            return;
        }
        uint8 winner = acted == 1 ? 0 : 1;
        d.outcome = winner == 0 ? Outcome.AWinsByTimeout : Outcome.BWinsByTimeout;
        payWinner(duelId, d, winner);
    }

    /// Payouts a recipient could not take at settlement (a contract that refused the transfer).
    function withdraw() external nonReentrant {
        uint256 amount = owed[msg.sender];
        if (amount == 0) revert NothingOwed();
        owed[msg.sender] = 0;
        emit Withdrawn(msg.sender, amount);
        (bool ok, ) = payable(msg.sender).call{value: amount}("");
        require(ok, "withdraw failed");
    }

    function getDuel(uint256 duelId) external view returns (Duel memory) {
        return duels[duelId];
    }

    function moveCommitment(uint256 duelId, address player, uint8 hits, bytes32 salt) public pure returns (bytes32) {
        return keccak256(abi.encodePacked(duelId, player, hits, salt));
    }

    /// Fisher-Yates over cards 0..51 (rank = card % 13 with 0 = ace, suit = card / 13), driven only by the seed.
    function shoe(bytes32 seed, bool sideA) public pure returns (uint8[] memory cards) {
        cards = new uint8[](52);
        for (uint8 i = 0; i < 52; i++) cards[i] = i;
        for (uint256 i = 51; i > 0; i--) {
            uint256 j = uint256(keccak256(abi.encodePacked(seed, sideA, uint8(i)))) % (i + 1);
            (cards[i], cards[j]) = (cards[j], cards[i]);
        }
    }

    function handValue(uint8[] memory cards, uint256 count) public pure returns (uint256 total, bool soft) {
        uint256 aces;
        for (uint256 k = 0; k < count; k++) {
            uint256 rank = uint256(cards[k]) % 13;
            if (rank == 0) {
                total += 1;
                aces++;
            } else if (rank >= 9) total += 10;
            else total += rank + 1;
        }
        if (aces > 0 && total + 10 <= 21) {
            total += 10;
            soft = true;
        }
    }

    /// 0 for a bust, 22 for a two-card 21 (it beats any other 21), else the hand's total.
    function score(bytes32 seed, bool sideA, uint8 hits) public pure returns (uint256) {
        (uint256 total, ) = handValue(shoe(seed, sideA), 2 + uint256(hits));
        if (total > 21) return 0;
        if (total == 21 && hits == 0) return 22;
        return total;
    }

    function actingSide(Duel storage d, Phase phase) private view returns (uint8 side) {
        if (d.phase != phase) revert WrongPhase(d.phase);
        if (block.timestamp > d.deadline) revert TooLate(d.deadline);
        if (msg.sender == d.players[0]) side = 0;
        else if (msg.sender == d.players[1]) side = 1;
        else revert NotPlayer();
        if (d.acted & (uint8(1) << side) != 0) revert AlreadyActed();
    }

    function markActed(Duel storage d, uint8 side) private returns (bool both) {
        d.acted |= uint8(1) << side;
        return d.acted == 3;
    }

    function advance(Duel storage d, Phase next) private {
        d.phase = next;
        d.acted = 0;
        d.deadline = uint64(block.timestamp) + actWindow;
    }

    function payWinner(uint256 duelId, Duel storage d, uint8 winner) private {
        uint256 pot = 2 * d.stake;
        uint256 rake = (pot * d.rakeBps) / 10_000;
        uint256 prize = pot - rake;
        emit Settled(duelId, uint8(d.outcome), d.players[winner], prize, rake);
        pay(d.players[winner], prize);
        pay(feeRecipient, rake);
    }

    function pay(address to, uint256 amount) private {
        if (amount == 0) return;
        (bool ok, ) = payable(to).call{value: amount, gas: PAYOUT_GAS}("");
        if (!ok) {
            owed[to] += amount;
            emit PaymentDeferred(to, amount);
        }
    }
}
