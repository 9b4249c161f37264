// check_doc_blocks ROOT [PAGE...]: every fenced code block of the pages
// (default: README.md and docs/tutorial-*.md under ROOT) is one of the
// example files the tests build and run, or a marked region of one — so that
// a page's code cannot drift from code that compiles and runs.
//
// The line before a block (blank lines skipped) names its source:
//   <!-- example: examples/dir/file.cpp -->          the whole file
//   <!-- example: examples/dir/file.cpp#name -->     the lines between the lines
//                                                    holding "example-begin name"
//                                                    and "example-end name"
//   <!-- not-an-example: reason -->                  no source (the reason is
//                                                    printed; e.g. the project's
//                                                    own build commands)
// Lines holding "example-begin" or "example-end" are never part of a block.
// Indented code blocks (and indented fences) are refused: they cannot be
// compared.
// The source must lie under examples/ and the block must equal it line for
// line. The relative links of these pages, of CHANGELOG.md and of every
// docs/*.md must name files that exist. Prints every problem and
// "N problems"; exit status 1 if N > 0.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::optional<std::vector<std::string>> read_lines(const fs::path& p) {
  std::ifstream in(p);
  if (!in) return std::nullopt;
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

bool is_marker_line(const std::string& l) {
  return l.find("example-begin") != std::string::npos || l.find("example-end") != std::string::npos;
}

// `l` holds `tag` ("example-begin name") followed by no further name character.
bool names_region(const std::string& l, const std::string& tag) {
  const auto at = l.find(tag);
  if (at == std::string::npos) return false;
  const std::size_t after = at + tag.size();
  return after == l.size() || !(std::isalnum(static_cast<unsigned char>(l[after])) || l[after] == '-' || l[after] == '_');
}

// The lines of `file` a block stands for: the whole file or region `name`.
std::optional<std::vector<std::string>> source_lines(const std::vector<std::string>& file, const std::string& name) {
  std::vector<std::string> out;
  bool inside = name.empty();
  bool found = name.empty();
  for (const std::string& l : file) {
    if (!name.empty() && names_region(l, "example-begin " + name)) {
      inside = found = true;
      continue;
    }
    if (!name.empty() && names_region(l, "example-end " + name)) {
      inside = false;
      continue;
    }
    if (inside && !is_marker_line(l)) out.push_back(l);
  }
  if (!found) return std::nullopt;
  return out;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// Relative links of a page's text (outside code) that name no file: the
// problems. `[text](target)` with target not http(s), not "#anchor" alone;
// the anchor of a target is not checked.
int check_links(const fs::path& root, const std::string& page, const std::vector<std::string>& lines) {
  int problems = 0;
  bool in_block = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("```", 0) == 0) {
      in_block = !in_block;
      continue;
    }
    if (in_block) continue;
    std::string text;  // the line without its inline code spans
    bool code = false;
    for (char c : lines[i]) {
      if (c == '`') code = !code;
      else if (!code) text += c;
    }
    for (std::size_t at = text.find("]("); at != std::string::npos; at = text.find("](", at + 2)) {
      const auto end = text.find(')', at + 2);
      if (end == std::string::npos) break;
      const std::string target = text.substr(at + 2, end - at - 2);
      if (target.empty() || target[0] == '#' || target.rfind("http://", 0) == 0 || target.rfind("https://", 0) == 0)
        continue;
      const std::string path = target.substr(0, target.find('#'));
      if (!fs::exists(root / fs::path(page).parent_path() / path)) {
        std::cout << page << ":" << i + 1 << ": a link to " << target << ", which does not exist\n";
        ++problems;
      }
    }
  }
  return problems;
}

int check_page(const fs::path& root, const std::string& page, int& blocks, int& exempt) {
  int problems = 0;
  const auto lines = read_lines(root / page);
  if (!lines) {
    std::cout << page << ": cannot be read\n";
    return 1;
  }
  const auto problem = [&](std::size_t line, const std::string& what) {
    std::cout << page << ":" << line + 1 << ": " << what << "\n";
    ++problems;
  };
  for (std::size_t i = 0; i < lines->size(); ++i) {
    const std::string& l = (*lines)[i];
    if (l.rfind("```", 0) != 0) {
      // an indented fence, or an indented code block (4 spaces or a tab after
      // a blank line): code the check cannot compare
      if (trim(l).rfind("```", 0) == 0) problem(i, "an indented code block: start its fence at column 1");
      else if ((l.rfind("    ", 0) == 0 || l.rfind("\t", 0) == 0) && i > 0 && trim((*lines)[i - 1]).empty() &&
               !trim(l).empty())
        problem(i, "an indented code block: write it as a fenced block with its source");
      continue;
    }
    // a block: find its end
    std::size_t end = i + 1;
    while (end < lines->size() && (*lines)[end].rfind("```", 0) != 0) ++end;
    if (end == lines->size()) {
      problem(i, "a code block that is never closed");
      break;
    }
    ++blocks;
    const std::vector<std::string> body(lines->begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                        lines->begin() + static_cast<std::ptrdiff_t>(end));
    std::size_t m = i;
    while (m > 0 && trim((*lines)[m - 1]).empty()) --m;
    const std::string marker = m > 0 ? trim((*lines)[m - 1]) : "";
    const std::string ex = "<!-- example: ", no = "<!-- not-an-example: ", close = " -->";
    const bool closed = marker.size() > close.size() && marker.compare(marker.size() - close.size(), close.size(), close) == 0;
    if (closed && marker.rfind(no, 0) == 0) {
      ++exempt;
      std::cout << page << ":" << i + 1 << ": not an example: "
                << marker.substr(no.size(), marker.size() - no.size() - close.size()) << "\n";
    } else if (closed && marker.rfind(ex, 0) == 0) {
      const std::string ref = marker.substr(ex.size(), marker.size() - ex.size() - close.size());
      const auto hash = ref.find('#');
      const std::string path = ref.substr(0, hash);
      const std::string region = hash == std::string::npos ? "" : ref.substr(hash + 1);
      const auto file = read_lines(root / path);
      if (path.rfind("examples/", 0) != 0) {
        problem(i, "the source " + path + " is not under examples/ (the examples are built and run by the tests)");
      } else if (!file) {
        problem(i, "the source " + path + " does not exist");
      } else if (const auto src = source_lines(*file, region); !src) {
        problem(i, "no region '" + region + "' (example-begin " + region + ") in " + path);
      } else if (*src != body) {
        std::size_t k = 0;
        while (k < src->size() && k < body.size() && (*src)[k] == body[k]) ++k;
        problem(i, "the block differs from " + ref + " at its line " + std::to_string(k + 1) + ": the page has '" +
                       (k < body.size() ? body[k] : "(end of block)") + "', the source '" +
                       (k < src->size() ? (*src)[k] : "(end of source)") + "'");
      }
    } else {
      problem(i, "a code block without a source: put <!-- example: examples/... --> (or <!-- not-an-example: "
                 "reason -->) on the line before it");
    }
    i = end;
  }
  return problems + check_links(root, page, *lines);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: check_doc_blocks ROOT [PAGE...]\n";
    return 2;
  }
  const fs::path root = argv[1];
  std::vector<std::string> pages;
  for (int i = 2; i < argc; ++i) pages.emplace_back(argv[i]);
  if (pages.empty()) {
    pages.emplace_back("README.md");
    std::vector<std::string> tutorials;
    for (const auto& e : fs::directory_iterator(root / "docs")) {
      const std::string name = e.path().filename().string();
      if (name.rfind("tutorial-", 0) == 0 && e.path().extension() == ".md") tutorials.push_back("docs/" + name);
    }
    std::sort(tutorials.begin(), tutorials.end());
    if (tutorials.empty()) {
      std::cout << "no docs/tutorial-*.md page\n1 problems\n";
      return 1;
    }
    pages.insert(pages.end(), tutorials.begin(), tutorials.end());
  }
  int problems = 0, blocks = 0, exempt = 0;
  for (const std::string& p : pages) problems += check_page(root, p, blocks, exempt);
  if (argc == 2) {  // the other pages' links: CHANGELOG.md and every docs/*.md that is no tutorial
    std::vector<std::string> others{"CHANGELOG.md"};
    for (const auto& e : fs::directory_iterator(root / "docs"))
      if (e.path().extension() == ".md" && e.path().filename().string().rfind("tutorial-", 0) != 0)
        others.push_back("docs/" + e.path().filename().string());
    std::sort(others.begin(), others.end());
    for (const std::string& p : others)
      if (const auto lines = read_lines(root / p)) problems += check_links(root, p, *lines);
  }
  std::cout << pages.size() << " pages, " << blocks << " code blocks (" << exempt << " not examples), " << problems
            << " problems\n";
  return problems == 0 ? 0 : 1;
}
