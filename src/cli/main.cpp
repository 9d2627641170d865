// iclproof: verify that transformer weight constructions implement the optimisation
// algorithms they claim to, in arbitrary precision.
#include "cli/command_line.hpp"

int main(int argc, char** argv) { return iclproof::run_command_line(argc, argv); }
