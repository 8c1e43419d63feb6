import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
    { ignores: ["dist/", "node_modules/", "scratch/", "coverage/", "test-artifacts/"] },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
        rules: {
            "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
            "no-constant-condition": ["error", { checkLoops: false }],
        },
    },
    {
        files: ["**/*.js", "**/*.mjs"],
        languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
    },
);
