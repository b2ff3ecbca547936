// CLI11's classes declared, not defined: the headers that name them in a declaration include this
// instead of <CLI/CLI.hpp> (header-only, about 4-7 s of compile time in each file that includes
// it); the files that build commands include the library themselves.
#pragma once

namespace CLI {
class App;
class Validator;
}  // namespace CLI
