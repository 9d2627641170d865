// The construction families of the report's sections: the built-in ones (families.cmake) and
// those an external project declares (ICLPROOF_FAMILY, iclproof.hpp). Standard library only, so
// the generated builtin_families.cpp includes nothing of Eigen, MPFR or RapidCheck.
#pragma once

#include <string>
#include <vector>

namespace iclproof {

// Known families, in report order, with the paper each one verifies.
struct family_info {
  std::string id;
  std::string title;
  std::string reference;
  std::string sheet_section;  // where CONSTRUCTIONS.md states it ("section 3"); may be empty
};
// The built-in construction families, in families.cmake's order (generated from it into the
// build tree by cmake/iclproof_families.cmake: builtin_families.cpp).
const std::vector<family_info>& builtin_families();
// The reference line of a family's report section: the reference, then "CONSTRUCTIONS.md:
// <sheet section>." when the family has one.
std::string family_reference_text(const family_info& info);
// The built-in families first, then those declared through family_registrar; an id neither
// knows gets its id as title and "(no paper reference recorded for this family)".
family_info describe_family(const std::string& id);
// Declares a family that is not built in (its title and the paper it verifies), for the report's
// section of the properties named "<id>.*". A static object in the family's own translation
// unit, like property_registrar (examples/external_family). The title reads "Short name: what
// it shows"; the part before ':' names the family's plots. A built-in id keeps its built-in
// description.
struct family_registrar {
  explicit family_registrar(family_info info);
};
// Families of the given property names, known ones first in paper order, then the rest sorted.
std::vector<std::string> families_in_order(const std::vector<std::string>& families);

}  // namespace iclproof
