//! Op spellings: the custom form of every hand-written op (catalog ops: `catalog`) (syntax.md §2.3, §5, §6; tcvt forms (b)→(a),
//! (d)/(e)→(c)), functions, and the generic form of unknown ops with properties and regions.

use super::literals::escape_string;
use super::Printer;
use crate::ir::{Attr, AttrDict, OpData, OpId, OpKind, RegionId, TcvtForm, TypeId};

/// Region nesting beyond which the printer stops descending.
const MAX_DEPTH: usize = 4_096;

impl Printer<'_> {
    pub(super) fn op(&mut self, id: OpId, level: usize) {
        let Some(op) = self.m.ops.get(id.0 as usize) else {
            return;
        };
        // Parsed IR nests a few hundred levels at most; this only stops cyclic hand-built IR
        // (a region containing its own parent op) from recursing forever.
        if level > MAX_DEPTH {
            self.out.push_str("<<nesting too deep>>\n");
            return;
        }
        self.indent(level);
        match &op.kind {
            OpKind::Func(_) => self.func(op, level),
            OpKind::Module(m) => {
                self.out.push_str("module");
                if let Some(name) = &m.name {
                    self.out.push(' ');
                    self.symbol(name);
                }
                if !op.attrs.is_empty() {
                    self.out.push_str(" attributes ");
                    self.dict_sorted(&op.attrs);
                }
                self.out.push_str(" {\n");
                if let Some(&body) = op.regions.first() {
                    self.items(body, level + 1);
                }
                self.indent(level);
                self.out.push('}');
            }
            OpKind::Return => {
                self.out.push_str("return");
                if !op.operands.is_empty() {
                    self.out.push(' ');
                    self.values(&op.operands);
                    self.out.push_str(" : ");
                    for i in 0..op.operands.len() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.operand_type(op, i);
                    }
                }
            }
            OpKind::Tcvt(t) => {
                let mut own = Vec::new();
                if let Some(rm) = t.rmode {
                    own.push(("rmode", Attr::RoundMode(rm)));
                }
                if let Some(s) = t.sat {
                    // spec: §7.2 `sat_mode` prints as `satmode`
                    own.push(("satmode", Attr::SatMode { on: s.on }));
                }
                let srcs = if t.has_tmp { 2 } else { 1 };
                match t.form {
                    TcvtForm::Ssa => {
                        self.result_defs(op);
                        self.out.push_str("pto.tcvt ");
                        self.operand_list(op, 0..srcs);
                        self.known_dict(" ", &own, &op.attrs, &[]);
                        self.out.push_str(" : ");
                        self.operand_type_list(op, 0..srcs);
                        self.out.push_str(" -> ");
                        self.result_type(op, 0);
                    }
                    TcvtForm::Dps => {
                        self.out.push_str("pto.tcvt ins(");
                        self.operand_list(op, 0..srcs);
                        self.known_dict(" ", &own, &op.attrs, &[]);
                        self.out.push_str(" : ");
                        self.operand_type_list(op, 0..srcs);
                        self.out.push_str(") outs(");
                        self.operand(op, srcs);
                        self.out.push_str(" : ");
                        self.operand_type(op, srcs);
                        self.out.push(')');
                    }
                }
            }
            OpKind::Vcvt(v) => {
                let mut own = Vec::new();
                if let Some(r) = v.rnd {
                    own.push(("rnd", Attr::Str(r.as_str().to_string())));
                }
                if let Some(s) = v.sat {
                    own.push(("sat", Attr::Str(s.as_str().to_string())));
                }
                if let Some(p) = v.part {
                    own.push(("part", Attr::Str(p.as_str().to_string())));
                }
                self.result_defs(op);
                self.out.push_str("pto.vcvt ");
                self.operand_list(op, 0..2);
                self.known_dict(" ", &own, &op.attrs, &[]);
                self.out.push_str(" : ");
                self.operand_type_list(op, 0..2);
                self.out.push_str(" -> ");
                self.result_type(op, 0);
            }
            OpKind::ArithConstant { value } => {
                self.result_defs(op);
                self.out.push_str("arith.constant ");
                self.plain_dict("", op);
                if !op.attrs.is_empty() {
                    self.out.push(' ');
                }
                self.constant_value(value);
            }
            OpKind::AllocTile { .. }
            | OpKind::DeclareTile
            | OpKind::MakeTensorView { .. }
            | OpKind::PartitionView { .. }
            | OpKind::Pset { .. }
            | OpKind::Plt { .. }
            | OpKind::Vlds
            | OpKind::Vsts
            | OpKind::Vbr
            | OpKind::VBinary(_)
            | OpKind::Catalog(_) => {
                if !self.catalog_op(op) {
                    self.out.push_str("<<op without a catalog row>>");
                }
            }
            OpKind::VecScope => {
                self.out.push_str("pto.vecscope {\n");
                if let Some(&r) = op.regions.first() {
                    self.region_ops(r, level + 1);
                }
                self.indent(level);
                self.out.push('}');
                self.plain_dict(" ", op);
            }
            OpKind::Opaque(o) => {
                self.result_defs(op);
                self.out.push_str(&o.name);
                self.opaque_items(op, o, level);
            }
            OpKind::Generic(g) => {
                self.result_defs(op);
                self.out.push_str(&escape_string(&g.name));
                self.out.push('(');
                self.values(&op.operands);
                self.out.push(')');
                if let Some(props) = &g.properties {
                    self.out.push_str(" <");
                    self.dict_sorted(props);
                    self.out.push('>');
                }
                if !op.regions.is_empty() {
                    self.out.push_str(" (");
                    for (i, &r) in op.regions.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.generic_region(r, level);
                    }
                    self.out.push(')');
                }
                if g.attrs_written || !op.attrs.is_empty() {
                    self.out.push(' ');
                    self.dict_sorted(&op.attrs);
                }
                self.out.push_str(" : (");
                for i in 0..op.operands.len() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.operand_type(op, i);
                }
                self.out.push_str(") -> ");
                let tys: Vec<TypeId> = op
                    .results
                    .iter()
                    .filter_map(|&v| self.value_ty(v))
                    .collect();
                if tys.len() == 1 {
                    self.result_types(&tys);
                } else {
                    self.out.push('(');
                    self.type_list(&tys);
                    self.out.push(')');
                }
            }
        }
        self.out.push('\n');
    }

    /// vlds/vsts: `dist` first, then the dotted keys (D-25).
    fn operand_list(&mut self, op: &OpData, range: std::ops::Range<usize>) {
        for (n, i) in range.enumerate() {
            if n > 0 {
                self.out.push_str(", ");
            }
            self.operand(op, i);
        }
    }

    fn operand_type_list(&mut self, op: &OpData, range: std::ops::Range<usize>) {
        for (n, i) in range.enumerate() {
            if n > 0 {
                self.out.push_str(", ");
            }
            self.operand_type(op, i);
        }
    }

    /// `arith.constant` always writes the literal's type (the grammar requires it).
    fn constant_value(&mut self, value: &Attr) {
        match value {
            Attr::Int { .. } | Attr::Hex { .. } | Attr::Float { .. } => self.literal(value, true),
            other => self.attr(other),
        }
    }

    fn generic_region(&mut self, r: RegionId, level: usize) {
        self.region_with_label(r, level, 0);
    }

    /// The tokens of an opaque op after its name, with canonical spacing: one space between
    /// tokens, none after an opening bracket or a dimension prefix, none before a closing
    /// bracket or `,`, none between a word and its `(`/`<` or a value and its `[`. The token
    /// sequence is exactly the one read, so printing is a fixed point.
    fn opaque_items(&mut self, op: &OpData, o: &crate::ir::OpaqueOp, level: usize) {
        use crate::ir::{OpaqueItem, TokClass};
        let mut prev = TokClass::Other;
        for item in &o.items {
            match item {
                OpaqueItem::Tok(t) => {
                    // After `16x` only what cannot merge with it into another token: an
                    // element type, `?` or a decimal extent (not `16x` or `0x1F`).
                    let after_dims = prev == TokClass::DimPrefix
                        && (t.class == TokClass::Word
                            || t.text == "?"
                            || (!t.text.is_empty() && t.text.bytes().all(|b| b.is_ascii_digit())));
                    let glued = prev == TokClass::Open
                        || after_dims
                        || matches!(t.class, TokClass::Close | TokClass::Comma)
                        || (prev == TokClass::Word && matches!(t.text.as_str(), "(" | "<"))
                        || (prev == TokClass::Value && t.text == "[");
                    if !glued {
                        self.out.push(' ');
                    }
                    self.out.push_str(&t.text);
                    prev = t.class;
                }
                OpaqueItem::Region(i) => {
                    if prev != TokClass::Open {
                        self.out.push(' ');
                    }
                    let skip = if *i == 0 { o.header_defs as usize } else { 0 };
                    match op.regions.get(*i as usize) {
                        Some(&r) => self.region_with_label(r, level, skip),
                        None => self.out.push_str("{<<missing region>>}"),
                    }
                    prev = TokClass::Close;
                }
            }
        }
    }

    /// `{`, the entry label with the block arguments after the first `skip` (those an opaque
    /// op's header defines), the ops, `}`.
    fn region_with_label(&mut self, r: RegionId, level: usize, skip: usize) {
        self.out.push_str("{\n");
        if let Some(data) = self.m.regions.get(r.0 as usize) {
            let args = data.args.get(skip..).unwrap_or(&[]);
            if data.label.is_some() || !args.is_empty() {
                self.indent(level);
                self.out.push_str(data.label.as_deref().unwrap_or("^bb0"));
                if !args.is_empty() {
                    self.out.push('(');
                    for (i, &a) in args.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.value(a);
                        self.out.push_str(": ");
                        match self.value_ty(a) {
                            Some(t) => self.ty(t),
                            None => self.out.push_str("<<missing type>>"),
                        }
                    }
                    self.out.push(')');
                }
                self.out.push_str(":\n");
            }
        }
        self.region_ops(r, level + 1);
        self.indent(level);
        self.out.push('}');
    }

    fn func(&mut self, op: &OpData, level: usize) {
        let OpKind::Func(f) = &op.kind else { return };
        self.out.push_str("func.func ");
        if let Some(vis) = &f.visibility {
            self.out.push_str(vis);
            self.out.push(' ');
        }
        self.symbol(&f.sym);
        self.out.push('(');
        let body = op.regions.first().copied().filter(|_| f.has_body);
        match body.and_then(|r| self.m.regions.get(r.0 as usize)) {
            Some(region) => {
                for (i, &a) in region.args.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.value(a);
                    self.out.push_str(": ");
                    match self.value_ty(a) {
                        Some(t) => self.ty(t),
                        None => self.out.push_str("<<missing type>>"),
                    }
                    self.arg_attrs(f.arg_attrs.get(i));
                }
            }
            None => {
                for (i, &t) in f.decl_arg_types.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.ty(t);
                    self.arg_attrs(f.arg_attrs.get(i));
                }
            }
        }
        self.out.push(')');
        if !f.result_types.is_empty() {
            self.out.push_str(" -> ");
            self.result_types(&f.result_types);
        }
        if !op.attrs.is_empty() {
            self.out.push_str(" attributes ");
            self.dict_sorted(&op.attrs);
        }
        if let Some(r) = body {
            self.out.push_str(" {\n");
            self.region_ops(r, level + 1);
            self.indent(level);
            self.out.push('}');
        }
    }

    fn arg_attrs(&mut self, attrs: Option<&Option<AttrDict>>) {
        if let Some(Some(d)) = attrs {
            self.out.push(' ');
            self.dict_sorted(d);
        }
    }
}
