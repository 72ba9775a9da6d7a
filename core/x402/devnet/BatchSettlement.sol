// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// The x402 batch-settlement escrow, written from the scheme's published EVM specification
// (specs/schemes/batch-settlement/scheme_batch_settlement_evm.md) with the interface @x402/evm 2.27
// calls. The devnet places its runtime code at the official address, because @x402/evm signs every
// channel id and voucher against that address.

interface IERC20Min {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
}

interface IDepositCollector {
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata data)
        external;
}

interface IERC1271 {
    function isValidSignature(bytes32 digest, bytes calldata signature) external view returns (bytes4);
}

contract BatchSettlement {
    struct ChannelConfig {
        address payer;
        address payerAuthorizer;
        address receiver;
        address receiverAuthorizer;
        address token;
        uint40 withdrawDelay;
        bytes32 salt;
    }

    struct Voucher {
        ChannelConfig channel;
        uint128 maxClaimableAmount;
    }

    struct VoucherClaim {
        Voucher voucher;
        bytes signature;
        uint128 totalClaimed;
    }

    struct ChannelState {
        uint128 balance;
        uint128 totalClaimed;
    }

    struct PendingWithdrawal {
        uint128 amount;
        uint40 initiatedAt;
    }

    struct ReceiverState {
        uint128 totalClaimed;
        uint128 totalSettled;
    }

    bytes32 public constant CHANNEL_CONFIG_TYPEHASH = keccak256(
        "ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)"
    );
    bytes32 private constant VOUCHER_TYPEHASH = keccak256("Voucher(bytes32 channelId,uint128 maxClaimableAmount)");
    bytes32 private constant REFUND_TYPEHASH = keccak256("Refund(bytes32 channelId,uint256 nonce,uint128 amount)");
    bytes32 private constant CLAIM_ENTRY_TYPEHASH =
        keccak256("ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)");
    bytes32 private constant CLAIM_BATCH_TYPEHASH = keccak256(
        "ClaimBatch(ClaimEntry[] claims)ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)"
    );
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    uint40 private constant MIN_WITHDRAW_DELAY = 900;
    uint40 private constant MAX_WITHDRAW_DELAY = 30 days;

    mapping(bytes32 => ChannelState) public channels;
    mapping(bytes32 => PendingWithdrawal) public pendingWithdrawals;
    mapping(address => mapping(address => ReceiverState)) public receivers;
    mapping(bytes32 => uint256) public refundNonce;

    event ChannelCreated(bytes32 indexed channelId, ChannelConfig config);
    event ChannelClosed(bytes32 indexed channelId, ChannelConfig config);
    event Deposited(bytes32 indexed channelId, address indexed sender, uint128 amount, uint128 balance);
    event Claimed(bytes32 indexed channelId, uint128 totalClaimed, uint128 delta);
    event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount);
    event Refunded(bytes32 indexed channelId, uint128 amount);
    event WithdrawInitiated(bytes32 indexed channelId, uint128 amount, uint40 finalizeAfter);
    event Withdrawn(bytes32 indexed channelId, uint128 amount);

    error InvalidConfig();
    error ZeroAmount();
    error DepositNotReceived();
    error InvalidVoucherSignature(bytes32 channelId);
    error ClaimAboveVoucher(bytes32 channelId);
    error ClaimAboveBalance(bytes32 channelId);
    error Unauthorized();
    error NothingToSettle();
    error BadRefundNonce();
    error AmountAboveUnclaimed();
    error NoPendingWithdrawal();
    error WithdrawDelayNotElapsed();
    error TransferFailed();

    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i = 0; i < data.length; i++) {
            (bool ok, bytes memory result) = address(this).delegatecall(data[i]);
            if (!ok) {
                assembly {
                    revert(add(result, 32), mload(result))
                }
            }
            results[i] = result;
        }
    }

    function deposit(ChannelConfig calldata config, uint128 amount, address collector, bytes calldata collectorData)
        external
    {
        if (amount == 0) revert ZeroAmount();
        if (
            config.receiverAuthorizer == address(0) || config.receiver == address(0) || config.payer == address(0)
                || config.withdrawDelay < MIN_WITHDRAW_DELAY || config.withdrawDelay > MAX_WITHDRAW_DELAY
        ) revert InvalidConfig();
        bytes32 channelId = getChannelId(config);
        uint256 before = IERC20Min(config.token).balanceOf(address(this));
        IDepositCollector(collector).collect(config.payer, config.token, amount, channelId, collectorData);
        if (IERC20Min(config.token).balanceOf(address(this)) != before + amount) revert DepositNotReceived();
        ChannelState storage channel = channels[channelId];
        if (channel.balance == 0 && channel.totalClaimed == 0) emit ChannelCreated(channelId, config);
        channel.balance += amount;
        emit Deposited(channelId, msg.sender, amount, channel.balance);
    }

    function claim(VoucherClaim[] calldata voucherClaims) external {
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            if (msg.sender != voucherClaims[i].voucher.channel.receiverAuthorizer) revert Unauthorized();
        }
        _claim(voucherClaims);
    }

    function claimWithSignature(VoucherClaim[] calldata voucherClaims, bytes calldata authorizerSignature) external {
        bytes32 digest = getClaimBatchDigest(voucherClaims);
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            address authorizer = voucherClaims[i].voucher.channel.receiverAuthorizer;
            if (!_isValidSignature(authorizer, digest, authorizerSignature)) revert Unauthorized();
        }
        _claim(voucherClaims);
    }

    function settle(address receiver, address token) external {
        ReceiverState storage state = receivers[receiver][token];
        uint128 amount = state.totalClaimed - state.totalSettled;
        if (amount == 0) revert NothingToSettle();
        state.totalSettled = state.totalClaimed;
        _send(token, receiver, amount);
        emit Settled(receiver, token, msg.sender, amount);
    }

    function initiateWithdraw(ChannelConfig calldata config, uint128 amount) external {
        if (msg.sender != config.payer && msg.sender != config.payerAuthorizer) revert Unauthorized();
        bytes32 channelId = getChannelId(config);
        ChannelState storage channel = channels[channelId];
        if (amount == 0) revert ZeroAmount();
        if (amount > channel.balance - channel.totalClaimed) revert AmountAboveUnclaimed();
        pendingWithdrawals[channelId] = PendingWithdrawal(amount, uint40(block.timestamp));
        emit WithdrawInitiated(channelId, amount, uint40(block.timestamp) + config.withdrawDelay);
    }

    function finalizeWithdraw(ChannelConfig calldata config) external {
        if (msg.sender != config.payer && msg.sender != config.payerAuthorizer) revert Unauthorized();
        bytes32 channelId = getChannelId(config);
        PendingWithdrawal memory pending = pendingWithdrawals[channelId];
        if (pending.initiatedAt == 0) revert NoPendingWithdrawal();
        if (block.timestamp < uint256(pending.initiatedAt) + config.withdrawDelay) revert WithdrawDelayNotElapsed();
        delete pendingWithdrawals[channelId];
        ChannelState storage channel = channels[channelId];
        uint128 unclaimed = channel.balance - channel.totalClaimed;
        uint128 amount = pending.amount < unclaimed ? pending.amount : unclaimed;
        channel.balance -= amount;
        if (amount > 0) _send(config.token, config.payer, amount);
        emit Withdrawn(channelId, amount);
        _closeIfDrained(channelId, config);
    }

    function refund(ChannelConfig calldata config, uint128 amount) external {
        if (msg.sender != config.receiver && msg.sender != config.receiverAuthorizer) revert Unauthorized();
        _refund(config, getChannelId(config), amount);
    }

    function refundWithSignature(
        ChannelConfig calldata config,
        uint128 amount,
        uint256 nonce,
        bytes calldata receiverAuthorizerSignature
    ) external {
        bytes32 channelId = getChannelId(config);
        if (nonce != refundNonce[channelId]) revert BadRefundNonce();
        bytes32 digest = getRefundDigest(channelId, nonce, amount);
        if (!_isValidSignature(config.receiverAuthorizer, digest, receiverAuthorizerSignature)) revert Unauthorized();
        _refund(config, channelId, amount);
    }

    function getChannelId(ChannelConfig calldata config) public view returns (bytes32) {
        return _typedDigest(
            keccak256(
                abi.encode(
                    CHANNEL_CONFIG_TYPEHASH,
                    config.payer,
                    config.payerAuthorizer,
                    config.receiver,
                    config.receiverAuthorizer,
                    config.token,
                    config.withdrawDelay,
                    config.salt
                )
            )
        );
    }

    function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) public view returns (bytes32) {
        return _typedDigest(keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, maxClaimableAmount)));
    }

    function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) public view returns (bytes32) {
        return _typedDigest(keccak256(abi.encode(REFUND_TYPEHASH, channelId, nonce, amount)));
    }

    function getClaimBatchDigest(VoucherClaim[] calldata voucherClaims) public view returns (bytes32) {
        bytes32[] memory entries = new bytes32[](voucherClaims.length);
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            VoucherClaim calldata entry = voucherClaims[i];
            entries[i] = keccak256(
                abi.encode(
                    CLAIM_ENTRY_TYPEHASH,
                    getChannelId(entry.voucher.channel),
                    entry.voucher.maxClaimableAmount,
                    entry.totalClaimed
                )
            );
        }
        return _typedDigest(keccak256(abi.encode(CLAIM_BATCH_TYPEHASH, keccak256(abi.encodePacked(entries)))));
    }

    function _claim(VoucherClaim[] calldata voucherClaims) private {
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            VoucherClaim calldata entry = voucherClaims[i];
            ChannelConfig calldata config = entry.voucher.channel;
            bytes32 channelId = getChannelId(config);
            if (entry.totalClaimed > entry.voucher.maxClaimableAmount) revert ClaimAboveVoucher(channelId);
            address voucherSigner = config.payerAuthorizer == address(0) ? config.payer : config.payerAuthorizer;
            if (
                !_isValidSignature(
                    voucherSigner, getVoucherDigest(channelId, entry.voucher.maxClaimableAmount), entry.signature
                )
            ) revert InvalidVoucherSignature(channelId);
            ChannelState storage channel = channels[channelId];
            if (entry.totalClaimed > channel.balance) revert ClaimAboveBalance(channelId);
            // A voucher at or below what is already claimed adds nothing; skipping it keeps the rest of the batch.
            if (entry.totalClaimed <= channel.totalClaimed) continue;
            uint128 delta = entry.totalClaimed - channel.totalClaimed;
            channel.totalClaimed = entry.totalClaimed;
            receivers[config.receiver][config.token].totalClaimed += delta;
            _trimPendingWithdrawal(channelId, channel);
            emit Claimed(channelId, entry.totalClaimed, delta);
        }
    }

    function _refund(ChannelConfig calldata config, bytes32 channelId, uint128 amount) private {
        refundNonce[channelId] += 1;
        ChannelState storage channel = channels[channelId];
        uint128 unclaimed = channel.balance - channel.totalClaimed;
        uint128 refunded = amount < unclaimed ? amount : unclaimed;
        if (refunded == 0) return;
        channel.balance -= refunded;
        PendingWithdrawal storage pending = pendingWithdrawals[channelId];
        if (pending.initiatedAt != 0) {
            if (refunded >= pending.amount) delete pendingWithdrawals[channelId];
            else pending.amount -= refunded;
        }
        _send(config.token, config.payer, refunded);
        emit Refunded(channelId, refunded);
        _closeIfDrained(channelId, config);
    }

    // A claim during a pending withdrawal leaves less escrow to withdraw; the recorded amount follows it down.
    function _trimPendingWithdrawal(bytes32 channelId, ChannelState storage channel) private {
        PendingWithdrawal storage pending = pendingWithdrawals[channelId];
        uint128 unclaimed = channel.balance - channel.totalClaimed;
        if (pending.initiatedAt != 0 && pending.amount > unclaimed) pending.amount = unclaimed;
    }

    function _closeIfDrained(bytes32 channelId, ChannelConfig calldata config) private {
        ChannelState storage channel = channels[channelId];
        if (channel.balance == channel.totalClaimed && channel.totalClaimed == 0) emit ChannelClosed(channelId, config);
    }

    function _send(address token, address to, uint128 amount) private {
        (bool ok, bytes memory result) = token.call(abi.encodeCall(IERC20Min.transfer, (to, amount)));
        if (!ok || (result.length > 0 && !abi.decode(result, (bool)))) revert TransferFailed();
    }

    function _typedDigest(bytes32 structHash) private view returns (bytes32) {
        bytes32 domainSeparator = keccak256(
            abi.encode(
                DOMAIN_TYPEHASH, keccak256("x402 Batch Settlement"), keccak256("1"), block.chainid, address(this)
            )
        );
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator, structHash));
    }

    function _isValidSignature(address signer, bytes32 digest, bytes calldata signature) private view returns (bool) {
        if (signer == address(0)) return false;
        if (signer.code.length > 0) {
            try IERC1271(signer).isValidSignature(digest, signature) returns (bytes4 magic) {
                return magic == IERC1271.isValidSignature.selector;
            } catch {
                return false;
            }
        }
        return _recover(digest, signature) == signer;
    }

    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        // Only the lower half of s, so a signature has one valid form.
        if (uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) return address(0);
        return ecrecover(digest, v, r, s);
    }
}
