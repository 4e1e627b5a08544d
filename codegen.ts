// Typed client: generated from the checked-in schema and the operation
// documents in schema/operations. `npm run codegen` reprints the schema first.
import type { CodegenConfig } from "@graphql-codegen/cli";

const config: CodegenConfig = {
  schema: "schema/schema.graphql",
  documents: ["schema/operations/**/*.graphql"],
  ignoreNoDocuments: false,
  // ESM with NodeNext resolution: relative imports need their .js extension.
  emitLegacyCommonJSImports: false,
  generates: {
    "src/client/": {
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: {
        scalars: { DateTime: "string", JSONObject: "Record<string, unknown>" },
        enumsAsTypes: true,
        useTypeImports: true,
        strictScalars: true,
      },
    },
  },
};

export default config;
