// Subcommands `sweep` (one shard of a design space: design k belongs to shard k mod N; JSON lines, restartable,
// designs on many threads) and `sweep-merge` (every shard joined, each design present once, the Pareto front and a
// summary). docs/sweeps.md.
#include "common.hpp"
#include "progress.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>

#include <achain/design/sweep.hpp>
#include <achain/io/design_json.hpp>
#include <achain/io/json_text.hpp>
#include <achain/math/text.hpp>

namespace achain::cli {
namespace sweep_cli {

/// The most designs one shard may hold (its bookkeeping is a byte per design) and one merge may join (it holds every
/// record in memory, about 9 KB each with the example's metrics).
constexpr uint64_t kMaxShardDesigns = uint64_t(1) << 32;
constexpr uint64_t kMaxMergeDesigns = 10000000;

struct Shard {
  uint64_t index = 0, count = 1;
};

/// A non-negative integer from text (decimal digits only), naming `what` on error.
uint64_t parseCount(const std::string& text, const std::string& what) {
  if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos)
    throw Error(what + ": " + quoteInput(text) + " is not a non-negative integer");
  return std::stoull(text);
}

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

/// --shard i/N, or auto: Slurm's job array (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT), or a
/// Kubernetes Indexed Job (JOB_COMPLETION_INDEX of --shards N).
Shard parseShard(const std::string& text, int shards) {
  Shard s;
  if (text == "auto") {
    if (const char* id = env("SLURM_ARRAY_TASK_ID")) {
      const char* count = env("SLURM_ARRAY_TASK_COUNT");
      if (!count) throw Error("--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not");
      const uint64_t task = parseCount(id, "SLURM_ARRAY_TASK_ID");
      const uint64_t min = env("SLURM_ARRAY_TASK_MIN") ? parseCount(env("SLURM_ARRAY_TASK_MIN"), "SLURM_ARRAY_TASK_MIN") : 0;
      s.count = parseCount(count, "SLURM_ARRAY_TASK_COUNT");
      if (task < min) throw Error("--shard auto: SLURM_ARRAY_TASK_ID " + std::to_string(task) + " is below SLURM_ARRAY_TASK_MIN " + std::to_string(min));
      s.index = task - min;
      if (shards > 0 && uint64_t(shards) != s.count)
        throw Error("--shards " + std::to_string(shards) + " disagrees with SLURM_ARRAY_TASK_COUNT " + std::to_string(s.count));
      if (s.count == 0 || s.index >= s.count)
        throw Error("--shard auto: task " + std::to_string(s.index) + " (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) is not below SLURM_ARRAY_TASK_COUNT " +
                    std::to_string(s.count) + " (the array must be contiguous, e.g. --array=0-" + std::to_string(s.count ? s.count - 1 : 0) + ")");
      return s;
    }
    if (const char* idx = env("JOB_COMPLETION_INDEX")) {
      if (shards <= 0) throw Error("--shard auto: JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job): give --shards N, the Job's completions");
      s.index = parseCount(idx, "JOB_COMPLETION_INDEX");
      s.count = uint64_t(shards);
      if (s.index >= s.count)
        throw Error("--shard auto: JOB_COMPLETION_INDEX " + std::to_string(s.index) + " is not below --shards " + std::to_string(s.count));
      return s;
    }
    throw Error("--shard auto: the environment names no shard: neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor "
                "JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set; give --shard i/N");
  }
  const size_t slash = text.find('/');
  if (slash == std::string::npos) throw Error("--shard: expected i/N (e.g. 0/4) or auto, got " + quoteInput(text));
  s.index = parseCount(text.substr(0, slash), "--shard");
  s.count = parseCount(text.substr(slash + 1), "--shard");
  if (s.count == 0) throw Error("--shard: N must be ≥ 1 (got " + quoteInput(text) + ")");
  if (s.index >= s.count) throw Error("--shard: i must be below N (0 … N−1; got " + quoteInput(text) + ")");
  if (shards > 0 && uint64_t(shards) != s.count)
    throw Error("--shards " + std::to_string(shards) + " disagrees with --shard " + quoteInput(text));
  return s;
}

std::string stem(const std::string& path) {
  const size_t slash = path.rfind('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t dot = base.rfind('.');
  if (dot != std::string::npos && dot > 0) base = base.substr(0, dot);
  return base;
}

/// One shard file's complete lines as records (with their line numbers). A last line without a newline is dropped
/// (with `partial_ok`: reported through `partial`, its byte offset in `complete_bytes`) or is an error.
struct ShardLine {
  DesignRecord record;
  size_t line = 0;
};
std::vector<ShardLine> readShard(const DesignSpace& space, const std::string& path, bool partial_ok, bool& partial,
                                 uint64_t& complete_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(nameInput(path) + ": cannot open the shard file");
  std::vector<ShardLine> out;
  std::string line;
  size_t n = 0;
  partial = false;
  complete_bytes = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::string where = nameInput(path) + ":" + std::to_string(n) + ": ";
    if (in.eof()) {  // no newline after it: the write a kill interrupted
      if (!partial_ok)
        throw Error(where + "the last line is incomplete (no newline: the shard was interrupted; run its sweep again to finish it)");
      partial = true;
      break;
    }
    if (line.size() > (size_t(1) << 24)) throw Error(where + "a line longer than 16 MiB");
    try {
      if (line.find_first_not_of(" \t\r") == std::string::npos) throw Error("an empty line (expected one design's JSON record)");
      out.push_back({designRecordFromJson(space, parseJsonText(line)), n});
    } catch (const Error& e) {
      throw Error(where + e.what());
    }
    complete_bytes += line.size() + 1;
  }
  return out;
}

struct SweepArgs {
  std::string design, shard = "0/1", out;
  int shards = 0, threads = 0;
  bool progress = false;
};

void runSweep(const SweepArgs& a) {
  const auto t0 = std::chrono::steady_clock::now();
  const DesignSpace space = readDesignSpace(a.design);
  const Shard sh = parseShard(a.shard, a.shards);
  if (a.threads < 0) throw Error("--threads: must be ≥ 0 (0 = every hardware thread)");
  const std::string out = a.out.empty() ? stem(a.design) + ".shard-" + std::to_string(sh.index) + "-of-" + std::to_string(sh.count) + ".jsonl" : a.out;
  const uint64_t mine = space.count > sh.index ? (space.count - sh.index + sh.count - 1) / sh.count : 0;
  if (mine > kMaxShardDesigns)
    throw Error("--shard: shard " + std::to_string(sh.index) + "/" + std::to_string(sh.count) + " holds " + std::to_string(mine) +
                " designs, more than one process takes (" + std::to_string(kMaxShardDesigns) + "): use more shards");

  // One process per shard file: a second run on the same file (a task started twice) would write designs twice.
  const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw Error("--out: cannot open " + quoteInput(out, 200) + " for appending");
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    throw Error("--out: " + quoteInput(out, 200) + " is being written by another achain sweep (one process per shard file)");
  }
  // What an earlier run of this shard wrote.
  std::vector<char> done(size_t(mine), 0);
  uint64_t skipped = 0, errors = 0;
  {
    bool partial = false;
    uint64_t bytes = 0;
    std::map<uint64_t, size_t> seen;
    for (const ShardLine& l : readShard(space, out, true, partial, bytes)) {
      const std::string where = nameInput(out) + ":" + std::to_string(l.line) + ": ";
      const uint64_t k = l.record.design;
      if (k % sh.count != sh.index)
        throw Error(where + "design " + std::to_string(k) + " is not in shard " + std::to_string(sh.index) + "/" + std::to_string(sh.count) +
                    " (design k belongs to shard k mod N): another shard's file?");
      if (seen.count(k)) throw Error(where + "design " + std::to_string(k) + " again (first on line " + std::to_string(seen[k]) + ")");
      seen[k] = l.line;
      done[size_t(k / sh.count)] = 1;
      ++skipped;
      errors += !l.record.error.empty();
    }
    if (partial) {
      std::cerr << "achain sweep: warning: " << safeMessage(nameInput(out)) << ":" << seen.size() + 1
                << ": dropped an incomplete last line (a write the previous run did not finish); its design runs again" << std::endl;
      if (::ftruncate(fd, off_t(bytes)) != 0) {
        ::close(fd);
        throw Error(nameInput(out) + ": cannot drop the incomplete last line (truncate failed)");
      }
    }
  }
  std::vector<uint64_t> todo;
  for (uint64_t j = 0; j < mine; ++j)
    if (!done[size_t(j)]) todo.push_back(sh.index + j * sh.count);

  std::FILE* f = ::fdopen(fd, "ab");
  if (!f) {
    ::close(fd);
    throw Error("--out: cannot open " + quoteInput(out, 200) + " for appending");
  }
  // Progress about once a second on stderr: a terminal, or asked for. SIGINT/SIGTERM (Slurm's scancel and time
  // limit) stop the shard between designs: the records written stay, and running the command again continues.
  ProgressLine line("achain sweep", (a.progress || ::isatty(2)) && !todo.empty());
  const StopOnSignal stop;
  const auto start = std::chrono::steady_clock::now();
  std::atomic<uint64_t> computed_now{0};  // records written so far, read by the report
  auto shardDetail = [&](uint64_t done) {
    char b[160];
    std::snprintf(b, sizeof b, "shard %llu/%llu: %llu/%llu designs", (unsigned long long)sh.index, (unsigned long long)sh.count,
                  (unsigned long long)done, (unsigned long long)mine);
    return std::string(b);
  };
  const Progress progress([&](double) {
    if (line.enabled()) {
      const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const uint64_t c = computed_now;
      const double rate = el > 0 ? c / el : 0;
      char r[48];
      std::snprintf(r, sizeof r, ", %.2f designs/s", rate);
      line.report(mine ? double(skipped + c) / double(mine) : 1.0, shardDetail(skipped + c) + r,
                  rate > 0 ? double(todo.size() - c) / rate : -1);
    }
    return true;
  }, stop.flag());
  DesignRunSummary run;
  try {
    run = runDesigns(space, todo, a.threads, [&](const DesignRecord& r) {
      const std::string text = designRecordToJson(space, r, true).dump() + "\n";
      if (std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fflush(f) != 0)
        throw Error("--out: writing " + quoteInput(out, 200) + " failed (disk full?)");
      ++computed_now;
    }, progress);
  } catch (...) {
    line.finish();
    std::fclose(f);
    throw;
  }
  const uint64_t computed = run.evaluated, computed_errors = run.errors;
  const int threads = run.threads;
  if (line.enabled()) line.report(mine ? double(skipped + computed) / double(mine) : 1.0, shardDetail(skipped + computed));
  line.finish();
  const bool closed = std::fclose(f) == 0;
  if (!closed) throw Error("--out: writing " + quoteInput(out, 200) + " failed (disk full?)");
  if (run.cancelled)
    throw Cancelled("shard " + std::to_string(sh.index) + "/" + std::to_string(sh.count) + " stopped after " +
                    std::to_string(skipped + computed) + " of " + std::to_string(mine) + " designs; the " +
                    std::to_string(skipped + computed) + " records in " + quoteInput(out, 200) +
                    " are kept: run the same command again to continue");
  print({{"shard", sh.index},
         {"shards", sh.count},
         {"designs", mine},
         {"skipped", skipped},
         {"computed", computed},
         {"errors", errors + computed_errors},
         {"threads", threads},
         {"out", out},
         {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()}});
}

RegisterCommand sweep_cmd("sweep", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "sweep",
      "Evaluate one shard of a design space (docs/sweeps.md): design k belongs to shard k mod N. Writes one JSON line per "
      "design to --out, flushed as each design finishes; an existing --out is read first and its designs are skipped "
      "(restart a killed shard with the same command). Ctrl-C or SIGTERM (Slurm's scancel or time limit) stops the shard "
      "between designs, keeping every record written, exit status 130 or 143. Prints a summary: shard, shards, designs, "
      "skipped, computed, errors, threads, out, seconds");
  static SweepArgs a;
  sub->add_option("design", a.design, "Design-space file (JSON, \"format\": \"achain-design-space\")")->required();
  sub->add_option("--shard", a.shard,
                  "i/N: this shard of N (default 0/1, every design); auto: i and N from a Slurm job array "
                  "(SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT) or from a Kubernetes Indexed Job "
                  "(JOB_COMPLETION_INDEX, with --shards N)");
  sub->add_option("--shards", a.shards, "N, the number of shards, for --shard auto under a Kubernetes Indexed Job");
  sub->add_option("--out", a.out, "JSON-lines file (default <design stem>.shard-<i>-of-<N>.jsonl in the current directory)");
  sub->add_option("--threads", a.threads, "Designs run at once, each on one thread (default 0: every hardware thread); results do not depend on it");
  sub->add_flag("--progress", a.progress, "Progress on stderr about once a second (done/total, designs/s, ETA) even when stderr is not a terminal");
  sub->callback([] { run("sweep", [] { runSweep(a); }); });
});

struct MergeArgs {
  std::string design, out;
  std::vector<std::string> shards;
};

void runMerge(const MergeArgs& a) {
  const DesignSpace space = readDesignSpace(a.design);
  if (space.count > kMaxMergeDesigns)
    throw Error(nameInput(a.design) + ": " + std::to_string(space.count) + " designs: a merge holds every record in memory, at most " +
                std::to_string(kMaxMergeDesigns) + " designs");
  std::vector<DesignRecord> records(size_t(space.count));
  std::vector<std::pair<size_t, size_t>> where(size_t(space.count), {0, 0});  // (file + 1, line)
  double total_seconds = 0;
  for (size_t fi = 0; fi < a.shards.size(); ++fi) {
    bool partial = false;
    uint64_t bytes = 0;
    for (ShardLine& l : readShard(space, a.shards[fi], false, partial, bytes)) {
      const uint64_t k = l.record.design;
      if (where[size_t(k)].first)
        throw Error(nameInput(a.shards[fi]) + ":" + std::to_string(l.line) + ": design " + std::to_string(k) + " again (first in " +
                    nameInput(a.shards[where[size_t(k)].first - 1]) + ":" + std::to_string(where[size_t(k)].second) + ")");
      where[size_t(k)] = {fi + 1, l.line};
      total_seconds += l.record.seconds;
      records[size_t(k)] = std::move(l.record);
    }
  }
  std::vector<uint64_t> missing;
  uint64_t n_missing = 0;
  for (uint64_t k = 0; k < space.count; ++k)
    if (!where[size_t(k)].first) {
      ++n_missing;
      if (missing.size() < 10) missing.push_back(k);
    }
  if (n_missing) {
    std::string list;
    for (uint64_t k : missing) list += (list.empty() ? "" : ", ") + std::to_string(k);
    throw Error("missing " + std::to_string(n_missing) + " of " + std::to_string(space.count) + " designs: " + list +
                (n_missing > missing.size() ? ", …" : "") + " (a shard file not given, or a shard not finished)");
  }
  const std::string text = sweepMergedJson(space, records).dump() + "\n";
  char b[200];
  std::snprintf(b, sizeof b, "%llu designs from %zu files; the designs took %.1f s of computing in all, %.4f s per design",
                (unsigned long long)space.count, a.shards.size(), total_seconds, space.count ? total_seconds / double(space.count) : 0.0);
  std::cerr << "achain sweep-merge: " << b << std::endl;
  if (a.out.empty())
    writeStdout(text);
  else
    writeFile(a.out, [&](std::ostream& o) { o << text; });
}

RegisterCommand merge_cmd("sweep-merge", [](CLI::App& app) {
  auto* sub = app.add_subcommand(
      "sweep-merge",
      "Join the shard files of a design space's sweep (docs/sweeps.md): every design 0..count-1 exactly once, else an error "
      "naming the missing or repeated ones (file:line). Writes one JSON object: format achain-sweep, the design space "
      "with its robot inline, the records sorted by design (without seconds), the Pareto front of the objectives and a "
      "summary; no wall-clock figure, so the same designs give the same bytes. The computing time goes to stderr");
  static MergeArgs a;
  sub->add_option("design", a.design, "Design-space file the shards were computed from")->required();
  sub->add_option("shards", a.shards, "Shard files (JSON lines from achain sweep)")->required();
  sub->add_option("--out", a.out, "Merged JSON file (default: stdout)");
  sub->callback([] { run("sweep-merge", [] { runMerge(a); }); });
});

}  // namespace sweep_cli
}  // namespace achain::cli
