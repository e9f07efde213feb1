// What the "module" form of the code export shares (the registry is web/share/codegen.js): the
// same numbers as the tensor snippet, written as the PyTorch nn.Module a tutorial writes (a buffer
// built once for max_len, forward slicing it to the sequence), plus a short usage block under
// `if __name__ == '__main__':` that ends with the table PE Lab shows in the variable `pe`.
import { flavour, indent, lines } from './python.js';

export const IMPORTS = ['import math', 'import torch', 'from torch import nn'];

/** The torch flavour every module is written in. */
export const TORCH = flavour('torch');

/**
 * A kind's own tensor snippet (PyTorch) as a function `name()` that returns its table (the float32
 * tensor the snippet ends with), the imports left out. `ret` is what the function returns.
 */
export function tableFunction(name, code, { ret = 'pe', doc = null } = {}) {
  const body = code.split('\n').filter((l) => !/^(import |from )/.test(l)).join('\n').trim();
  return lines(`def ${name}():`, doc ? `    """${doc}"""` : null, indent(body), `    return ${ret}`);
}

/**
 * The usage block of an additive encoding: a token embedding scaled by √d_model plus the
 * positions, as the Transformer does, in (N, S, D). `make` builds the module; `table` is the line
 * that sets `pe` to PE Lab's table from it.
 */
export function additiveUsage({ make, dModel, seq, table, note = null }) {
  return lines(
    "if __name__ == '__main__':",
    `    vocab_size, d_model = 1000, ${dModel}`,
    '    embed = nn.Embedding(vocab_size, d_model)',
    `    pos = ${make}`,
    `    tokens = torch.randint(vocab_size, (2, ${seq}))   # (N, S) token ids`,
    '    x = pos(embed(tokens) * math.sqrt(d_model))   # x = embed(tokens) * √d_model + pe, (N, S, d_model)',
    note ? `    # ${note}` : null,
    `    pe = ${table}`,
  );
}

/**
 * A module holding a fixed additive table as the buffer `pe` [1, max_len, d_model]; forward(x)
 * adds self.pe[:, :x.size(1)] to x of shape (N, S, d_model). `fn` is the table function's source
 * (tableFunction), `call` its call.
 */
export function bufferModule({ cls, doc, fn, call, dModel, rows, usageNote = null }) {
  return lines(IMPORTS, '', '',
    fn, '', '',
    `class ${cls}(nn.Module):`,
    `    """${doc}"""`,
    '',
    '    def __init__(self):',
    '        super().__init__()',
    `        pe = ${call}   # [max_len, d_model]`,
    "        self.register_buffer('pe', pe.float()[None], persistent=False)   # [1, max_len, d_model], built once",
    '',
    '    def forward(self, x):   # x: (N, S, d_model)',
    '        return x + self.pe[:, : x.size(1)]',
    '', '',
    additiveUsage({ make: `${cls}()`, dModel, seq: rows, table: 'pos.pe[0]   # the buffer: PE Lab\'s table [max_len, d_model]', note: usageNote }));
}
