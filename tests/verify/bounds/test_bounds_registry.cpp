// The bounds registry: stable lower-case ids, user registration checked, and
// pointers that stay valid while other threads register and look up bounds.
#include <catch2/catch.hpp>

#include <symerr/verify/bounds/bounds.hpp>
#include <symerr/domains/symbolic_instances.hpp>  // the library's instantiations (compile time)

#include <atomic>
#include <cctype>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace symerr;
using namespace symerr::verify;

namespace {

SpecBound user_bound(const std::string& id) {
  SpecBound b;
  b.id = id;
  b.op = symerr::OpId::Add;
  b.name = "test bound " + id;
  b.formula = "|err| <= 1";
  b.source = "tests/verify/bounds/test_bounds_registry.cpp";
  b.enclose = [](const SymbolicError&, const SymbolicError&, const SymbolicError&) { return Interval::point(1); };
  b.exact = [](const ExactPoint&) { return mpq_class(1); };
  return b;
}

bool lower_case(const std::string& s) {
  for (unsigned char c : s)
    if (std::isupper(c) || std::isspace(c)) return false;
  return !s.empty();
}

}  // namespace

TEST_CASE("bounds registry: every built-in id is lower-case and unique", "[verify][bounds]") {
  const auto all = bound_registry();
  REQUIRE(all.size() >= 20);
  std::set<std::string> ids;
  for (const SpecBound* b : all) {
    INFO(b->id);
    CHECK(lower_case(b->id));
    CHECK(ids.insert(b->id).second);
    CHECK(find_bound(b->id) == b);
  }
  for (const char* id : {"symerr.div.float.introduction", "symerr.mul.propagation", "symerr.add.int.introduction",
                         "digest.mul.float.introduction", "seed000.div.propagation", "digest.div.int.introduction"}) {
    INFO(id);
    CHECK(find_bound(id) != nullptr);
  }
  CHECK(find_bound("symerr.Div.float.introduction") == nullptr);  // ids are not case-folded
}

TEST_CASE("register_bound rejects a bad id or an incomplete bound, with a message", "[verify][bounds]") {
  CHECK_THROWS_WITH(register_bound(user_bound("test.Upper.case")), Catch::Contains("lower-case"));
  CHECK_THROWS_WITH(register_bound(user_bound("")), Catch::Contains("lower-case"));
  CHECK_THROWS_WITH(register_bound(user_bound("symerr.div.propagation")), Catch::Contains("exists"));
  SpecBound b = user_bound("test.registry.incomplete");
  b.exact = nullptr;
  CHECK_THROWS_WITH(register_bound(b), Catch::Contains("needs enclose and exact"));
  CHECK(find_bound("test.registry.incomplete") == nullptr);
}

TEST_CASE("register_bound and find_bound from many threads: pointers stay valid", "[verify][bounds]") {
  // Pointers taken before the registrations (a vector would move these
  // elements on growth: ASan reports the use after free, Release reads garbage).
  const SpecBound* builtin = find_bound("symerr.div.float.introduction");
  REQUIRE(builtin);
  register_bound(user_bound("test.registry.first"));
  const SpecBound* first = find_bound("test.registry.first");
  REQUIRE(first);

  constexpr int kWriters = 4, kPerWriter = 200, kReaders = 3;
  std::atomic<int> registered{0};
  std::atomic<bool> done{false};
  std::atomic<long> bad{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w)
    threads.emplace_back([w, &registered] {
      for (int k = 0; k < kPerWriter; ++k) {
        register_bound(user_bound("test.registry.w" + std::to_string(w) + "." + std::to_string(k)));
        ++registered;
      }
    });
  for (int r = 0; r < kReaders; ++r)
    threads.emplace_back([&] {
      while (!done) {
        const SpecBound* b = find_bound("test.registry.first");
        if (b != first || b->id != "test.registry.first") ++bad;
        for (const SpecBound* x : bounds_for(symerr::OpId::Add, FP32))
          if (x->id.empty() || !x->enclose) ++bad;
        if (find_bound("test.registry.w0.0") && find_bound("test.registry.w0.0")->name != "test bound test.registry.w0.0")
          ++bad;
      }
    });
  for (int w = 0; w < kWriters; ++w) threads[w].join();
  done = true;
  for (std::size_t t = kWriters; t < threads.size(); ++t) threads[t].join();

  CHECK(bad == 0);
  CHECK(registered == kWriters * kPerWriter);
  CHECK(find_bound("symerr.div.float.introduction") == builtin);
  CHECK(builtin->id == "symerr.div.float.introduction");
  CHECK(first->id == "test.registry.first");
  CHECK(first->name == "test bound test.registry.first");
  for (int w = 0; w < kWriters; ++w)
    for (int k = 0; k < kPerWriter; ++k) {
      const std::string id = "test.registry.w" + std::to_string(w) + "." + std::to_string(k);
      const SpecBound* b = find_bound(id);
      REQUIRE(b);
      CHECK(b->id == id);
    }
}
