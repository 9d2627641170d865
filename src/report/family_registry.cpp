// The families of the report's sections: the built-in ones (families.cmake), the report's own
// (compare, trained), and those declared by family_registrar objects (report/families.hpp).
#include "report/families.hpp"

#include <algorithm>
#include <vector>

namespace iclproof {

namespace {
// The built-in families (families.cmake), then the report's sections that are not construction
// families: the trained models measured against the constructions.
const std::vector<family_info>& known_families() {
  static const std::vector<family_info> f = [] {
    std::vector<family_info> all = builtin_families();
    all.push_back({"compare", "Learned weights against the constructions",
                   "Models trained by iclproof-train compared with the hand-built constructions.",
                   ""});
    all.push_back(
        {"trained", "Trained models vs constructions",
         "Weights files written by iclproof-train (src/trainer/WEIGHTS_FORMAT.md), evaluated by "
         "`iclproof compare` in MPFR on fresh tasks and measured against the constructions "
         "(von Oswald Prop. 1 and GD++, Ahn Lemma 1 / Thm 3, Memformer App. D).",
         ""});
    return all;
  }();
  return f;
}

// Families declared by family_registrar objects (static initialisation, any order).
std::vector<family_info>& registered_families() {
  static std::vector<family_info> f;
  return f;
}
}  // namespace

family_registrar::family_registrar(family_info info) {
  registered_families().push_back(std::move(info));
}

std::string family_reference_text(const family_info& info) {
  if (info.sheet_section.empty()) return info.reference;
  return info.reference + " CONSTRUCTIONS.md: " + info.sheet_section + ".";
}

family_info describe_family(const std::string& id) {
  for (const auto& f : known_families())
    if (f.id == id) return f;
  for (const auto& f : registered_families())
    if (f.id == id) return f;
  return {id, id, "(no paper reference recorded for this family)", ""};
}

std::vector<std::string> families_in_order(const std::vector<std::string>& families) {
  std::vector<std::string> out;
  for (const auto& f : known_families())
    if (std::find(families.begin(), families.end(), f.id) != families.end()) out.push_back(f.id);
  std::vector<std::string> rest;
  for (const auto& f : families)
    if (std::find(out.begin(), out.end(), f) == out.end() &&
        std::find(rest.begin(), rest.end(), f) == rest.end())
      rest.push_back(f);
  std::sort(rest.begin(), rest.end());
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

}  // namespace iclproof
