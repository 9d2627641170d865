// Text put into a Markdown table cell or list item: '|' escaped (it would end the cell), and a
// newline, which would end the row, written as <br> (a line break inside a table cell, report.md)
// or as a space (a list item, proofs/CLAIMS.md).
#pragma once

#include <string>
#include <string_view>

namespace iclproof {

enum class markdown_newline { line_break, space };

inline std::string markdown_cell(std::string_view s,
                                 markdown_newline newline = markdown_newline::line_break) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += newline == markdown_newline::line_break ? "<br>" : " ";
    else
      out += c;
  }
  return out;
}

}  // namespace iclproof
