// Types of _keccak.js (the project does not type-check JavaScript).
export declare function bytesOf(hex: string): Uint8Array;
export declare function keccak256(input: Uint8Array | string): `0x${string}`;
