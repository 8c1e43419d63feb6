/** Jest in native ESM mode (Babylon is ESM-only); @swc/jest strips the types. Type checking is `npm run typecheck`. */
export default {
    testEnvironment: "node",
    roots: ["<rootDir>/test"],
    testMatch: ["**/*.test.ts"],
    // Browser tests run on their own: npm run test:e2e (jest.e2e.config.js).
    testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/e2e/"],
    extensionsToTreatAsEsm: [".ts"],
    // Our TS sources import "./x.js" (the spelling Node ESM and tsc NodeNext need); map it back for Jest.
    moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
    transform: {
        "^.+\\.ts$": ["@swc/jest", { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "es6" } }],
    },
    testTimeout: 60000,
    globalSetup: "<rootDir>/test/helpers/globalSetup.js",
    // Babylon's banner and messages off in every test file (warnings and errors stay).
    setupFiles: ["<rootDir>/test/helpers/quietBabylon.js"],
};
