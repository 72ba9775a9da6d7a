import { definePlugin } from "../../core/endpoint.ts";
import { publicdataUpstreams } from "./_upstreams.ts";
import { scienceAndGovernment } from "./_science-and-government.ts";
import { placesAndReference } from "./_places-and-reference.ts";

export default definePlugin({
  family: "publicdata",
  endpoints: [...scienceAndGovernment, ...placesAndReference].sort((a, b) => a.name.localeCompare(b.name)),
  upstreams: publicdataUpstreams,
});
