"""A trimmed-down community-vLLM-style V1 ``GPUModelRunner``.

``execute_model`` has early ``return`` paths (nothing scheduled, and
non-last pipeline stages), which matter when the dump is wired in.
"""
from typing import Optional

import torch
import torch.nn as nn
from vllm.config import VllmConfig
from vllm.distributed.parallel_state import get_pp_group
from vllm.forward_context import set_forward_context
from vllm.model_executor.model_loader import get_model
from vllm.v1.outputs import EMPTY_MODEL_RUNNER_OUTPUT, ModelRunnerOutput


class GPUModelRunner:
    def __init__(self, vllm_config: VllmConfig, device: torch.device):
        self.vllm_config = vllm_config
        self.model_config = vllm_config.model_config
        self.device = device
        self.max_num_tokens = vllm_config.scheduler_config.max_num_batched_tokens
        self.input_ids = torch.zeros(self.max_num_tokens, dtype=torch.int32, device=device)
        self.positions = torch.zeros(self.max_num_tokens, dtype=torch.int64, device=device)
        self.requests = {}
        self.model: Optional[nn.Module] = None

    def load_model(self) -> None:
        self.model = get_model(vllm_config=self.vllm_config)

    def _update_states(self, scheduler_output) -> None:
        for req_id in scheduler_output.finished_req_ids:
            self.requests.pop(req_id, None)
        for new_req in scheduler_output.scheduled_new_reqs:
            self.requests[new_req.req_id] = new_req

    def _prepare_inputs(self, scheduler_output):
        num_tokens = scheduler_output.total_num_scheduled_tokens
        req_ids = list(scheduler_output.num_scheduled_tokens)
        logits_indices = torch.arange(len(req_ids), device=self.device)
        return self.input_ids[:num_tokens], self.positions[:num_tokens], logits_indices, req_ids

    @torch.inference_mode()
    def execute_model(self, scheduler_output, intermediate_tensors=None):
        self._update_states(scheduler_output)
        if not scheduler_output.total_num_scheduled_tokens:
            return EMPTY_MODEL_RUNNER_OUTPUT

        input_ids, positions, logits_indices, req_ids = self._prepare_inputs(scheduler_output)
        with set_forward_context(None, self.vllm_config, num_tokens=input_ids.shape[0]):
            hidden_states = self.model(
                input_ids=input_ids,
                positions=positions,
                intermediate_tensors=intermediate_tensors,
            )
        if not get_pp_group().is_last_rank:
            return hidden_states

        logits = self.model.compute_logits(hidden_states[logits_indices], None)
        sampled = logits.argmax(dim=-1).tolist()
        return ModelRunnerOutput(
            req_ids=req_ids,
            req_id_to_index={rid: i for i, rid in enumerate(req_ids)},
            sampled_token_ids=[[tok] for tok in sampled],
            spec_token_ids=None,
            logprobs=None,
            prompt_logprobs_dict={},
        )
