import { Logger } from "@babylonjs/core/Misc/logger.js";

/**
 * Runs before every test file: Babylon's plain messages (the "Babylon.js v9 - Null engine" banner
 * each NullEngine prints) are not logged; its warnings and errors still are.
 */
Logger.LogLevels = Logger.WarningLogLevel | Logger.ErrorLogLevel;
