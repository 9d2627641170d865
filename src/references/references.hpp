// All closed-form references (CONSTRUCTIONS.md section 6).
#pragma once
#include "references/first_order_methods.hpp"
#include "references/gradient_descent.hpp"
#include "references/regression_solutions.hpp"
