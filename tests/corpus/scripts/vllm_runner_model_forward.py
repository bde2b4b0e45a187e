"""A vLLM-V1-style ``GPUModelRunner`` whose ``execute_model`` reaches the model
through ``_model_forward`` (as upstream vLLM does), with the model loaded
later in ``load_model``."""
import torch
import torch.nn as nn
from vllm.config import VllmConfig
from vllm.forward_context import set_forward_context
from vllm.model_executor.model_loader import get_model
from vllm.v1.outputs import EMPTY_MODEL_RUNNER_OUTPUT, ModelRunnerOutput
from vllm.v1.worker.gpu_input_batch import InputBatch


class GPUModelRunner:
    def __init__(self, vllm_config: VllmConfig, device: torch.device):
        """Buffers only: the model comes in load_model()."""
        self.vllm_config = vllm_config
        self.device = device
        self.input_batch = InputBatch(max_num_reqs=256, device=device)
        self.model: nn.Module

    def load_model(self) -> None:
        self.model = get_model(vllm_config=self.vllm_config)

    def _prepare_inputs(self, scheduler_output):
        num_tokens = scheduler_output.total_num_scheduled_tokens
        positions = torch.arange(num_tokens, device=self.device)
        return self.input_batch.token_ids[:num_tokens], positions

    def _model_forward(self, input_ids=None, positions=None, **model_kwargs):
        return self.model(input_ids=input_ids, positions=positions, **model_kwargs)

    def _sample(self, hidden_states):
        logits = self.model.compute_logits(hidden_states, None)
        return logits.argmax(dim=-1).tolist()

    @torch.inference_mode()
    def execute_model(self, scheduler_output, intermediate_tensors=None):
        if not scheduler_output.total_num_scheduled_tokens:
            return EMPTY_MODEL_RUNNER_OUTPUT
        input_ids, positions = self._prepare_inputs(scheduler_output)
        with set_forward_context(None, self.vllm_config, num_tokens=input_ids.shape[0]):
            hidden_states = self._model_forward(
                input_ids=input_ids,
                positions=positions,
                intermediate_tensors=intermediate_tensors,
            )
        sampled = self._sample(hidden_states)
        return ModelRunnerOutput(req_ids=list(scheduler_output.num_scheduled_tokens), sampled_token_ids=sampled)
