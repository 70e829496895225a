import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        """
        :param input_size: features of the input
        :param layer_sizes: the hidden layers' widths
        :param output_size: features of the output
        """
        super(Model, self).__init__()
        layers = []
        current_input_size = input_size
        for layer_size in layer_sizes:
            layers.append(nn.Linear(current_input_size, layer_size))
            layers.append(nn.ReLU())
            current_input_size = layer_size
        layers.append(nn.Linear(current_input_size, output_size))
        self.network = nn.Sequential(*layers)

    def forward(self, x):
        """
        :param x: (batch_size, input_size)
        :return: (batch_size, output_size)
        """
        return self.network(x)

# Test code
batch_size = 8
input_size = 256
layer_sizes = [128, 64]
output_size = 16

def get_inputs():
    return [torch.randn(batch_size, input_size)]

def get_init_inputs():
    return [input_size, layer_sizes, output_size]
