// The iclproof command line as a library function.
//
// An executable whose main returns run_command_line(argc, argv) is the `iclproof` program with
// every property registered in it: the built-in ones (iclproof_properties / iclproof::properties)
// and any that the executable's own translation units register (ICLPROOF_PROPERTY). They share
// one runner, one `check --ci` gate and one report. src/cli/main.cpp is that main.
#pragma once

namespace iclproof {

// Parses argv, runs the subcommand, returns the process exit code: 0 pass, 1 a property or
// comparison failed, 2 bad input (one "iclproof: error:" line on stderr).
int run_command_line(int argc, char** argv);

}  // namespace iclproof
