import { createMemoryStore } from "../../../core/runtime/store.ts";
import { storeContract } from "./store-contract.ts";

storeContract("memory store", async () => createMemoryStore());
