/** A real receipt of the devnet key (public: core/receipts/key.ts) for a hash call at http://127.0.0.1:4021. */
export const example = {
  input: {
    receipt:
      "eyJhbGciOiJFZERTQSIsImtpZCI6ImRpZDp3ZWI6MTI3LjAuMC4xJTNBNDAyMSNyZWNlaXB0cy0xIn0.eyJib2R5U2hhMjU2IjoiYzk0Mzk3M2MyYzJlNGZkNDRiNzJlZGZkMjQ0OTdkOTFjMzdkY2M3YjMwZThlM2ZhZDNmZmNlNWM5ZDVlYzFiMCIsImNoYXJnZWQiOiIxMDAwIiwiaXNzdWVkQXQiOjE3OTU4NjAwMDAsIm5ldHdvcmsiOiJlaXAxNTU6MzEzMzciLCJwYXllciI6IjB4M0M0NENkRGRCNmE5MDBmYTJiNTg1ZGQyOTllMDNkMTJGQTQyOTNCQyIsInByaWNlIjoiMTAwMCIsInJlcXVlc3RIYXNoIjoiMmEzNzdiODQ2NDgzZTc4ODliNzZlYWU0YjhmZGI3ZTE2MjMzMzdmMzY0Y2E2MWJjNGQ2NWMyYWEyNGY2MjIyMSIsInJlc291cmNlVXJsIjoiaHR0cDovLzEyNy4wLjAuMTo0MDIxL3YxL2hhc2giLCJyb3V0ZSI6IkdFVCAvdjEvaGFzaCIsInRyYW5zYWN0aW9uIjoiMHg2ZjFjMGE3ZDRlMmIzYzVhOWQ4ZTdmNmE1YjRjM2QyZTFmMGE5YjhjN2Q2ZTVmNGEzYjJjMWQwZTlmOGE3YjZjIiwidmVyc2lvbiI6MX0.-7i1jmeyUVDh9mlBm0IF-xT2L9iAh69RXGOZCV5NNQdVD63NqIUTYni6X-FmiLQPNgSVaC4LW-zzoMQFWSxJCQ",
    body: '{"meta":{"product":"converters","endpoint":"hash","ts":"2026-11-28T10:00:00.000Z"},"data":{"algorithm":"sha256","hex":"8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4"}}',
    route: "GET /v1/hash",
    price: "1000",
  },
  output: {
    valid: true,
    receipt: {
      version: 1,
      network: "eip155:31337",
      resourceUrl: "http://127.0.0.1:4021/v1/hash",
      payer: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      issuedAt: 1795860000,
      transaction: "0x6f1c0a7d4e2b3c5a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c",
      route: "GET /v1/hash",
      requestHash: "2a377b846483e7889b76eae4b8fdb7e1623337f364ca61bc4d65c2aa24f62221",
      price: "1000",
      charged: "1000",
      bodySha256: "c943973c2c2e4fd44b72edfd24497d91c37dcc7b30e8e3fad3ffce5c9d5ec1b0",
    },
  },
};
