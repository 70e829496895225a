"""Training step of a gated linear recurrence (the token mixer of HGRN, Griffin's RG-LRU, minGRU
and other linear RNNs): per channel,
    h_t = a_t * h_{t-1} + x_t,    a_t = sigmoid(gate_t + gate_bias)    (h_0 = 0),
16 sequences of 2048 steps, 1024 channels. The reference evaluates it in parallel in log space:
log a_t = logsigmoid(...), and inside each chunk of 128 steps with cum = cumsum(log a),
h_i = exp(cum_i) * cumsum_j(exp(-cum_j) x_j); a short loop over chunks carries h between them
(h_i += exp(cum_i) * h_in). One cumsum over the whole sequence would overflow exp(-cum) in fp32;
128 steps keep it below about exp(27) at these gate values (fp32 ends near exp(88)), and make the
loop 15 steps; with 16 sequences the step's time is its GPU work rather than its kernel launches
(with 64-step chunks, and with 8 sequences in 128-step chunks, queueing a step took longer than
its GPU work on the H200: 5.09 against 4.15 ms; docs/benchmarks.md, session 22).
A length that is not a multiple of 128 is padded with steps of zero log-decay and zero input, and
cut back.
Inputs x and gate, each [batch, len, 1024]; parameter gate_bias [1024] (the per-channel decay
rate, initialised so a is between 0.9 and 0.999 at zero gate). Returns h [batch, len, 1024];
kforge drives backward with a random upstream gradient of that shape.
Compared: the output, the gradients of x and gate (both come from projections of the layer's
input) and of gate_bias.
Why it matters: linear recurrences train in parallel over the sequence; their backward is the
same recurrence run in reverse (dh_t = g_t + a_{t+1} dh_{t+1}, then dx = dh, d log a = h_{t-1} a dh).
A fused scan kernel reads x and the gate once and writes h once in each direction, where eager
PyTorch makes about ten fp32 passes and loops over chunks.
Precision: fp32 (recurrent states and log-decays are kept in fp32 in linear-RNN kernels).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"

BATCH = 16
SEQ_LEN = 2048
CHANNELS = 1024
CHUNK = 128

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ_LEN": 256, "CHANNELS": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "SEQ_LEN": 1999}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 101}]


class Model(nn.Module):
    def __init__(self, channels: int, chunk: int):
        super().__init__()
        self.chunk = chunk
        a0 = 0.9 + 0.099 * torch.rand(channels)
        self.gate_bias = nn.Parameter(torch.log(a0 / (1.0 - a0)))

    def forward(self, x: torch.Tensor, gate: torch.Tensor) -> torch.Tensor:
        b, length, d = x.shape
        q = self.chunk
        log_a = F.logsigmoid(gate + self.gate_bias)  # [b, len, d], < 0
        pad = (-length) % q
        if pad:
            log_a = F.pad(log_a, (0, 0, 0, pad))
            x = F.pad(x, (0, 0, 0, pad))
        c = (length + pad) // q
        cum = log_a.view(b, c, q, d).cumsum(dim=2)
        grow = torch.exp(cum)  # product of a from the chunk's start through step i
        # Inside each chunk from a zero start: h_i = sum_{j <= i} exp(cum_i - cum_j) x_j.
        local = grow * torch.cumsum(torch.exp(-cum) * x.view(b, c, q, d), dim=2)
        # The state entering each chunk, carried across chunks in order.
        state = local.new_zeros(b, d)
        incoming = [state]
        for k in range(c - 1):
            state = state * grow[:, k, -1] + local[:, k, -1]
            incoming.append(state)
        h = local + grow * torch.stack(incoming, dim=1).unsqueeze(2)  # [b, c, q, d]
        return h.view(b, c * q, d)[:, :length]


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, CHANNELS)
    gate = torch.randn(BATCH, SEQ_LEN, CHANNELS)
    return [x, gate]


def get_init_inputs():
    return [CHANNELS, CHUNK]
