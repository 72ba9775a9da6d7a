import { badRequest } from "../../core/runtime/errors.ts";

/** A 400 for a problem only the handler can see, shaped like the schema's own field issues. */
export const fieldError = (field: string, message: string) => badRequest(message, { issues: [{ field, message }] });
