// Which modules a file trains and which it keeps frozen, from what the
// optimizers are built over (issue 14, item 1): the model of a train loop is
// the module whose parameters an optimizer updates, not the first module the
// loop happens to call (a frozen text encoder, a teacher, an EMA copy).
//
// Per file and by source text, like Bindings: `optimizer = AdamW(unet.parameters())`
// makes `unet` trained; `text_encoder.requires_grad_(False)` makes it frozen.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "bindings.h"
#include "msprobe/analysis/facts.h"

namespace msprobe::analysis {

class ModuleTraining {
 public:
  ModuleTraining(const FileFacts& facts, const Bindings& bindings);

  // An optimizer of the file holds `expr`'s parameters (directly, through a
  // parameter list or group, or through a wrapper such as DDP(model) or
  // accelerator.prepare(model, optimizer)).
  bool trained(std::string_view expr) const { return trained_.matches(expr); }
  // The file freezes `expr`: requires_grad_(False), `p.requires_grad = False`
  // over its parameters, or eval() with no train() anywhere.
  bool frozen(std::string_view expr) const { return frozen_.matches(expr); }
  // Some optimizer's parameters were traced to a module.
  bool known() const { return !trained_.items.empty(); }

  const std::vector<std::string>& trained_modules() const { return trained_.items; }

  // Module expressions, compared as the same module: "model.module" is
  // "model", and `self.model` in a class is `trainer.model` at a call site.
  // Hashed: a generated file may hold thousands of optimizers.
  class Names {
   public:
    bool matches(std::string_view expr) const;
    void add(std::string_view expr);
    std::vector<std::string> items;

   private:
    // Ordered with transparent lookup: a query by string_view allocates nothing.
    std::set<std::string, std::less<>> exact_, tails_, self_tails_;
  };

 private:
  void add(Names& set, std::string_view expr) { set.add(expr); }
  void from_optimizer(const Call& c, int depth);
  void modules_in(std::string_view text, int depth, int function);

  const FileFacts& f_;
  const Bindings& b_;
  Names trained_;
  Names frozen_;
};

}  // namespace msprobe::analysis
