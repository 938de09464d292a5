//! Rendering diagnostics to text (ariadne, human) or JSON. Used only at the CLI edge.
