// The warm-up analysis of a fresh analysis thread (see warm_up.h).
#include "warm_up.h"

#include "msprobe/analysis/analyzer.h"

namespace msprobe::server {

const analysis::SourceText& warm_up_script() {
  static const analysis::SourceText script(std::string(R"py(import torch
from msprobe.pytorch import PrecisionDebugger

debugger = PrecisionDebugger(config_path="./config.json")


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


def train(model, loader, optimizer):
    for step, (x, y) in enumerate(loader):
        debugger.start(model)
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        debugger.stop()
        debugger.step()


model = torch.compile(Net())
train(model, [], torch.optim.SGD(model.parameters(), lr=0.1))
)py"));
  return script;
}

void warm_up(analysis::PythonParser& parser) {
  (void)analysis::analyze(parser, warm_up_script(), analysis::AnalysisOptions{});
}

}  // namespace msprobe::server
