// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20Like {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

interface IERC1271 {
    function isValidSignature(bytes32 hash, bytes memory signature) external view returns (bytes4);
}

/// The part of Uniswap's Permit2 (SignatureTransfer) that x402's upto proxy calls: permitWitnessTransferFrom with
/// unordered nonces, under Permit2's EIP-712 domain and type strings. Placed at the canonical Permit2 address on
/// the devnet; it has no constructor state (the domain separator is computed per call).
contract Permit2 {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    bytes32 private constant TYPE_HASH = keccak256("EIP712Domain(string name,uint256 chainId,address verifyingContract)");
    bytes32 private constant HASHED_NAME = keccak256("Permit2");
    bytes32 public constant TOKEN_PERMISSIONS_TYPEHASH = keccak256("TokenPermissions(address token,uint256 amount)");
    string public constant PERMIT_TRANSFER_FROM_WITNESS_TYPEHASH_STUB =
        "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,";

    /// owner => word position => bitmap of used nonces
    mapping(address => mapping(uint256 => uint256)) public nonceBitmap;

    event UnorderedNonceInvalidation(address indexed owner, uint256 word, uint256 mask);

    error SignatureExpired(uint256 signatureDeadline);
    error InvalidAmount(uint256 maxAmount);
    error InvalidNonce();
    error InvalidSignature();
    error InvalidSigner();
    error InvalidSignatureLength();
    error InvalidContractSignature();

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(TYPE_HASH, HASHED_NAME, block.chainid, address(this)));
    }

    function permitWitnessTransferFrom(
        PermitTransferFrom memory permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external {
        if (block.timestamp > permit.deadline) revert SignatureExpired(permit.deadline);
        if (transferDetails.requestedAmount > permit.permitted.amount) revert InvalidAmount(permit.permitted.amount);
        _useUnorderedNonce(owner, permit.nonce);
        bytes32 typeHash = keccak256(abi.encodePacked(PERMIT_TRANSFER_FROM_WITNESS_TYPEHASH_STUB, witnessTypeString));
        bytes32 dataHash = keccak256(
            abi.encode(
                typeHash,
                keccak256(abi.encode(TOKEN_PERMISSIONS_TYPEHASH, permit.permitted)),
                msg.sender,
                permit.nonce,
                permit.deadline,
                witness
            )
        );
        _verify(signature, keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), dataHash)), owner);
        require(
            IERC20Like(permit.permitted.token).transferFrom(owner, transferDetails.to, transferDetails.requestedAmount),
            "Permit2: transfer failed"
        );
    }

    /// The owner burns nonces it signed and no longer wants spent.
    function invalidateUnorderedNonces(uint256 wordPos, uint256 mask) external {
        nonceBitmap[msg.sender][wordPos] |= mask;
        emit UnorderedNonceInvalidation(msg.sender, wordPos, mask);
    }

    function _useUnorderedNonce(address from, uint256 nonce) private {
        uint256 wordPos = uint248(nonce >> 8);
        uint256 bit = 1 << uint8(nonce);
        uint256 flipped = nonceBitmap[from][wordPos] ^= bit;
        if (flipped & bit == 0) revert InvalidNonce();
    }

    function _verify(bytes calldata signature, bytes32 hash, address claimedSigner) private view {
        if (claimedSigner.code.length > 0) {
            bytes4 magic = IERC1271(claimedSigner).isValidSignature(hash, signature);
            if (magic != IERC1271.isValidSignature.selector) revert InvalidContractSignature();
            return;
        }
        bytes32 r;
        bytes32 s;
        uint8 v;
        if (signature.length == 65) {
            (r, s) = abi.decode(signature, (bytes32, bytes32));
            v = uint8(signature[64]);
        } else if (signature.length == 64) {
            // EIP-2098 compact signature
            bytes32 vs;
            (r, vs) = abi.decode(signature, (bytes32, bytes32));
            s = vs & bytes32(0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff);
            v = uint8(uint256(vs >> 255)) + 27;
        } else {
            revert InvalidSignatureLength();
        }
        address signer = ecrecover(hash, v, r, s);
        if (signer == address(0)) revert InvalidSignature();
        if (signer != claimedSigner) revert InvalidSigner();
    }
}
