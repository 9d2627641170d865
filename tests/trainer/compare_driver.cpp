// Stand-in for `iclproof compare` while src/cli/ does not wire the subcommand yet: the same
// handler (run_compare_command), the same error convention (one "iclproof: error:" line, exit 2).
#include "compare/compare.hpp"

#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "iclproof: error: usage: iclproof_compare_driver WEIGHTS.json [--tasks N] [--json OUT]\n";
    return 2;
  }
  try {
    iclproof::compare_options o;
    std::string json;
    for (int i = 2; i + 1 < argc; i += 2) {
      const std::string k = argv[i];
      if (k == "--tasks") o.tasks = std::stoi(argv[i + 1]);
      else if (k == "--precision") o.precision_bits = std::stoi(argv[i + 1]);
      else if (k == "--json") json = argv[i + 1];
      else throw std::invalid_argument("unknown option " + k);
    }
    return iclproof::run_compare_command(argv[1], o, json);
  } catch (const std::exception& e) {
    std::cerr << "iclproof: error: " << e.what() << "\n";
    return 2;
  }
}
