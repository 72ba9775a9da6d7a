import { definePlugin } from "../../core/endpoint.ts";

export default definePlugin({
  family: "converters",
});
