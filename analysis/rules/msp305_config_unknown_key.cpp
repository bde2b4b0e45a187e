// MSP305 config-unknown-key: keys msProbe does not read (unknown, removed,
// other-version, repeated, misplaced) and task blocks it ignores.
#include "config/config_walk.h"
#include "msprobe/analysis/rule.h"

namespace msprobe::analysis {
namespace {

constexpr std::string_view kDocs = R"md(
## What it does
Reports keys msProbe does not read: unknown keys (with a did-you-mean suggestion), keys of the
other msProbe version (`extra_info` on 8.x, `enable_dataloader` on 26.x), removed keys (`seed`,
`is_deterministic`, `backward_input`), top-level keys written inside a task block, repeated keys,
and blocks for a task that is not selected (as a faded hint).

## Why it matters
msProbe reads fields with `dict.get`: a misspelt key is silently ignored and its default is used,
so the dump is not what the file seems to ask for.

## Example
```json
{"task": "statistics", "levle": "L0", "seed": 1234, "dump_path": "/data/dump"}
```

## Fix
Correct the key (`"level"`), or remove it; call `seed_all()` in the script instead of `seed`.

## Source
msprobe-facts §1 (parsing behaviour), §1.1 and §2.6.
)md";

using config::quoted;

class KeyCheck {
 public:
  KeyCheck(const config::ConfigContext& ctx, FindingSink& sink) : ctx_(ctx), sink_(sink) {}

  void run() {
    using config::MemberRole;
    for (const config::MemberRef& m : ctx_.members) {
      switch (m.role) {
        case MemberRole::Repeated: repeated(m); break;
        case MemberRole::Removed:
          report(Severity::Warning, m.member().key_range,
                 quoted(m.key()) + where(m) + " is no longer read by msProbe: " + std::string(m.field->removed),
                 {config::delete_member_fix(*m.object, m.index, "Remove " + quoted(m.key()))}, {Tag::Deprecated});
          break;
        case MemberRole::OtherVersion:
          report(Severity::Warning, m.member().key_range,
                 quoted(m.key()) + where(m) + " is read by msProbe " + config::versions_text(m.field->versions) +
                     "; msProbe " + config::to_string(ctx_.version) + " ignores it" + ctx_.version_hint(),
                 {}, {Tag::Unnecessary});
          break;
        case MemberRole::Ignored:
          report(Severity::Hint, m.member().key_range,
                 quoted(m.key()) + where(m) + " is ignored by the PyTorch dump (" + std::string(m.field->ignored) + ")",
                 {}, {Tag::Unnecessary});
          break;
        case MemberRole::Field: field(m); break;
        case MemberRole::Block: break;
        case MemberRole::BlocklessTask:
          report(Severity::Warning, m.member().key_range,
                 "task " + quoted(m.key()) + " has no block of its own: msProbe ignores " + quoted(m.key()),
                 {config::delete_member_fix(*m.object, m.index, "Remove the " + quoted(m.key()) + " block")},
                 {Tag::Unnecessary});
          break;
        case MemberRole::IgnoredBlock: ignored_block(m); break;
        case MemberRole::Unknown: unknown(m); break;
      }
    }
  }

 private:
  void report(Severity sev, ByteRange r, std::string message, std::vector<Fix> fixes = {}, std::vector<Tag> tags = {}) {
    sink_.report(config::make_finding("MSP305", sev, r, std::move(message), std::move(fixes), std::move(tags)));
  }

  static std::string where(const config::MemberRef& m) { return m.top_level() ? "" : " in " + quoted(m.block); }

  // Python's json keeps the last of repeated keys; this names the next one.
  void repeated(const config::MemberRef& m) {
    const auto& members = m.object->members;
    uint32_t later = 0;
    for (std::size_t j = members.size(); j-- > m.index + 1;) {
      if (members[j].key == m.key()) later = members[j].key_range.start;
    }
    report(Severity::Warning, m.member().key_range,
           "repeated key " + quoted(m.key()) + ": msProbe ignores this one and uses the one on line " +
               std::to_string(ctx_.line_of(later)),
           {config::delete_member_fix(*m.object, m.index, "Remove the ignored " + quoted(m.key()))},
           {Tag::Unnecessary});
  }

  void field(const config::MemberRef& m) {
    if (m.top_level() && m.key() == "enable_dataloader" && ctx_.version == config::ConfigVersion::V8)
      report(Severity::Hint, m.member().key_range,
             "enable_dataloader is deprecated (and ignored by msProbe 26.x); call start/stop/step in the loop instead",
             {}, {Tag::Deprecated});
    if (m.field->type == config::FieldType::SliceList && m.value().is(config::JsonKind::Array)) {
      for (const config::JsonValue& item : m.value().items) {
        if (!item.is(config::JsonKind::Object)) continue;
        for (const config::JsonMember& s : item.members) {
          if (s.key != "dim" && s.key != "size" && s.key != "begin" && s.key != "end")
            report(Severity::Warning, s.key_range,
                   "unknown slice key " + quoted(s.key) + ": only dim, size, begin and end are read");
        }
      }
    }
  }

  void ignored_block(const config::MemberRef& m) {
    bool readable = config::in_version(m.task->versions, ctx_.version) && !m.task->mindspore_only;
    std::string why = !readable ? "it is for msProbe " + config::versions_text(m.task->versions)
                                : "task is " + quoted(ctx_.selected_task);
    report(Severity::Hint, m.member().key_range, "the " + quoted(m.key()) + " block is ignored: " + why,
           {config::delete_member_fix(*m.object, m.index, "Remove the ignored " + quoted(m.key()) + " block")},
           {Tag::Unnecessary});
  }

  void unknown(const config::MemberRef& m) {
    const std::string& key = m.key();
    if (key == "keep_all_ranks") {
      report(Severity::Warning, m.member().key_range,
             "keep_all_ranks is not an msProbe field (it comes from the vllm-ascend guide); msProbe ignores it. "
             "Use \"rank\": [] to dump every rank");
      return;
    }
    std::vector<std::string> candidates;
    for (const config::FieldSpec* f : config::fields_of(m.block, ctx_.version)) candidates.emplace_back(f->name);
    if (m.top_level()) {
      for (const config::TaskSpec* t : config::tasks_of(ctx_.version)) {
        if (t->has_block) candidates.emplace_back(t->name);
      }
    } else if (config::find_field("", key)) {
      report(
          Severity::Warning, m.member().key_range,
          quoted(key) + " belongs at the top level of config.json; inside " + quoted(m.block) + " msProbe ignores it");
      return;
    }
    std::string best = config::did_you_mean(key, candidates);
    std::string msg = "unknown key " + quoted(key) + where(m) + ": msProbe ignores it";
    std::vector<Fix> fixes;
    if (!best.empty()) {
      msg += "; did you mean " + quoted(best) + "?";
      fixes.push_back(config::replace_fix("Rename to " + quoted(best), m.member().key_range, quoted(best)));
    }
    report(Severity::Warning, m.member().key_range, msg, fixes);
  }

  const config::ConfigContext& ctx_;
  FindingSink& sink_;
};

void check_config(const config::ConfigContext& ctx, FindingSink& sink) { KeyCheck(ctx, sink).run(); }

}  // namespace

extern const Rule msp305_config_unknown_key{{"MSP305", "config-unknown-key", "A config.json key msProbe ignores",
                                             Severity::Warning, FixAvailability::Sometimes, kDocs},
                                            nullptr,
                                            &check_config};

}  // namespace msprobe::analysis
