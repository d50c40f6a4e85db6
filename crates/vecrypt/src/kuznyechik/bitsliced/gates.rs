//! The gates of the bitsliced rounds, for any word of lanes: π and π⁻¹ as Boolean circuits,
//! and the folded ℓ of one R step as an XOR network.
//!
//! π follows its decomposition into 4-bit maps (Biryukov, Perrin and Udovenko, 2016): with
//! `(l, r) = α(x)` in nibbles, `l' = ν0(l)` when `r = 0` and `ν1(l ⊙ r⁻¹)` otherwise,
//! `r' = σ(r ⊙ φ(l'))` and `π(x) = ω(l' ‖ r')`, ⊙ the product of GF(16) modulo
//! x^4 + x^3 + 1. π⁻¹ runs the steps backwards: `(l', r') = ω⁻¹(x)`, `r = σ⁻¹(r') ⊙ φ(l')⁻¹`,
//! `l = ν0⁻¹(l')` when `r = 0` and `ν1⁻¹(l') ⊙ r` otherwise, `α⁻¹(l ‖ r)`. Every 4-bit map
//! is written from its algebraic normal form (one AND per monomial of degree two or more,
//! shared between the output bits), the GF(16) products as sixteen ANDs and a reduction,
//! the choice on `r = 0` as a mask, and every sum of terms (the normal forms, the
//! reductions, α, ω and their inverses) as an XOR network built by pairing, again and
//! again, the two terms that the most sums share.
//!
//! Gates: π 232 (136 XOR, 84 AND, 3 OR, 9 NOT), π⁻¹ 174 (109 XOR, 57 AND, 3 OR, 5 NOT),
//! ℓ 103 XOR. The unit tests below check π and π⁻¹ on all 256 inputs and ℓ on every bit.

use super::Lane;

/// π on eight bit slices (`x[b]` holds bit `b` of every byte).
#[inline(always)]
pub(in crate::kuznyechik) fn pi<W: Lane>(x: [W; 8]) -> [W; 8] {
    let [x0, x1, x2, x3, x4, x5, x6, x7] = x;
    let t0 = x1 ^ x3;
    let t1 = x0 ^ x6;
    let t2 = t0 ^ x7;
    let t3 = x2 ^ x6;
    let t4 = x2 ^ x5;
    let t5 = t2 ^ t4;
    let t6 = t1 ^ x1;
    let t7 = t1 ^ t5;
    let t8 = t0 ^ x4;
    let t9 = x5 & t8;
    let t10 = x5 & t2;
    let t11 = t3 & t2;
    let t12 = x5 & t3;
    let t13 = t12 & t2;
    let t14 = t8 & t3;
    let t15 = t14 & t2;
    let t16 = t9 & t3;
    let t17 = t9 & t2;
    let t18 = t8 & t2;
    let t19 = t10 ^ t14;
    let t20 = t19 ^ t8;
    let t21 = t16 ^ t3;
    let t22 = t15 ^ t2;
    let t23 = t13 ^ t9;
    let t24 = t11 ^ t23;
    let t25 = t24 ^ x5;
    let t26 = t22 ^ t25;
    let t27 = t21 ^ t24;
    let t28 = t21 ^ t22;
    let t29 = t20 ^ t27;
    let t30 = t19 ^ t28;
    let t31 = t18 ^ t29;
    let t32 = t17 ^ t30;
    let t33 = t17 ^ t20;
    let t34 = t13 ^ t33;
    let t35 = t12 ^ t34;
    let t36 = t11 ^ t32;
    let t37 = t10 ^ t26;
    let t38 = t7 & t37;
    let t39 = t7 & t36;
    let t40 = t7 & t31;
    let t41 = t7 & t35;
    let t42 = t6 & t37;
    let t43 = t6 & t36;
    let t44 = t6 & t31;
    let t45 = t6 & t35;
    let t46 = t1 & t37;
    let t47 = t1 & t36;
    let t48 = t1 & t31;
    let t49 = t1 & t35;
    let t50 = x3 & t37;
    let t51 = x3 & t36;
    let t52 = x3 & t31;
    let t53 = x3 & t35;
    let t54 = t52 ^ t53;
    let t55 = t49 ^ t54;
    let t56 = t51 ^ t55;
    let t57 = t48 ^ t56;
    let t58 = t45 ^ t57;
    let t59 = t50 ^ t58;
    let t60 = t47 ^ t59;
    let t61 = t46 ^ t53;
    let t62 = t44 ^ t60;
    let t63 = t43 ^ t61;
    let t64 = t42 ^ t55;
    let t65 = t41 ^ t62;
    let t66 = t40 ^ t63;
    let t67 = t39 ^ t64;
    let t68 = t38 ^ t58;
    let t69 = t7 & t6;
    let t70 = t6 & t1;
    let t71 = t7 & x3;
    let t72 = t69 & x3;
    let t73 = t7 & t1;
    let t74 = t73 & x3;
    let t75 = t6 & x3;
    let t76 = t70 & x3;
    let t77 = t69 & t1;
    let t78 = t1 & x3;
    let t79 = t69 ^ t75;
    let t80 = t78 ^ t79;
    let t81 = t70 ^ t74;
    let t82 = t7 ^ t72;
    let t83 = t81 ^ t82;
    let t84 = t80 ^ t82;
    let t85 = t80 ^ t81;
    let t86 = t79 ^ x3;
    let t87 = t77 ^ t84;
    let t88 = t76 ^ t86;
    let t89 = t73 ^ t85;
    let t90 = t71 ^ t88;
    let t91 = t71 ^ t83;
    let t92 = t7 ^ t90;
    let t93 = t69 ^ t91;
    let t94 = t6 ^ t93;
    let t95 = t1 ^ t87;
    let t96 = !t92;
    let t97 = t67 & t66;
    let t98 = t68 & t66;
    let t99 = t68 & t67;
    let t100 = t99 & t66;
    let t101 = t66 & t65;
    let t102 = t97 & t65;
    let t103 = t67 & t65;
    let t104 = t101 ^ t98;
    let t105 = t67 ^ t97;
    let t106 = t65 ^ t66;
    let t107 = t105 ^ t106;
    let t108 = t66 ^ t99;
    let t109 = t107 ^ t68;
    let t110 = t104 ^ t67;
    let t111 = t104 ^ t108;
    let t112 = t104 ^ t107;
    let t113 = t103 ^ t111;
    let t114 = t102 ^ t112;
    let t115 = t100 ^ t114;
    let t116 = !t109;
    let t117 = !t115;
    let t118 = !t113;
    let t119 = x5 | t8;
    let t120 = t3 | t2;
    let t121 = t119 | t120;
    let t122 = t94 ^ t116;
    let t123 = t122 & t121;
    let t124 = t94 ^ t123;
    let t125 = t96 ^ t117;
    let t126 = t125 & t121;
    let t127 = t96 ^ t126;
    let t128 = t95 ^ t118;
    let t129 = t128 & t121;
    let t130 = t95 ^ t129;
    let t131 = t89 ^ t110;
    let t132 = t131 & t121;
    let t133 = t89 ^ t132;
    let t134 = t124 & t130;
    let t135 = t127 & t130;
    let t136 = t124 & t127;
    let t137 = t136 & t130;
    let t138 = t127 & t133;
    let t139 = t130 & t133;
    let t140 = t134 & t133;
    let t141 = t137 & t133;
    let t142 = t136 & t133;
    let t143 = t135 & t133;
    let t144 = t124 & t133;
    let t145 = t137 ^ t139;
    let t146 = t141 ^ t145;
    let t147 = t133 ^ t135;
    let t148 = t130 ^ t146;
    let t149 = t147 ^ t148;
    let t150 = t124 ^ t140;
    let t151 = t149 ^ t150;
    let t152 = t147 ^ t150;
    let t153 = t145 ^ t152;
    let t154 = t144 ^ t153;
    let t155 = t144 ^ t149;
    let t156 = t143 ^ t155;
    let t157 = t143 ^ t148;
    let t158 = t142 ^ t157;
    let t159 = t138 ^ t158;
    let t160 = t138 ^ t151;
    let t161 = t136 ^ t159;
    let t162 = t136 ^ t154;
    let t163 = t134 ^ t160;
    let t164 = !t163;
    let t165 = !t161;
    let t166 = !t162;
    let t167 = x5 & t164;
    let t168 = x5 & t165;
    let t169 = x5 & t156;
    let t170 = x5 & t166;
    let t171 = t8 & t164;
    let t172 = t8 & t165;
    let t173 = t8 & t156;
    let t174 = t8 & t166;
    let t175 = t3 & t164;
    let t176 = t3 & t165;
    let t177 = t3 & t156;
    let t178 = t3 & t166;
    let t179 = t2 & t164;
    let t180 = t2 & t165;
    let t181 = t2 & t156;
    let t182 = t2 & t166;
    let t183 = t181 ^ t182;
    let t184 = t178 ^ t183;
    let t185 = t180 ^ t184;
    let t186 = t177 ^ t185;
    let t187 = t174 ^ t186;
    let t188 = t179 ^ t187;
    let t189 = t176 ^ t188;
    let t190 = t175 ^ t182;
    let t191 = t173 ^ t189;
    let t192 = t172 ^ t190;
    let t193 = t171 ^ t184;
    let t194 = t170 ^ t191;
    let t195 = t169 ^ t192;
    let t196 = t168 ^ t193;
    let t197 = t167 ^ t187;
    let t198 = t197 & t196;
    let t199 = t197 & t194;
    let t200 = t196 & t195;
    let t201 = t200 & t194;
    let t202 = t197 & t195;
    let t203 = t198 & t195;
    let t204 = t196 & t194;
    let t205 = t202 & t194;
    let t206 = t198 & t194;
    let t207 = t195 & t194;
    let t208 = t194 ^ t200;
    let t209 = t205 ^ t208;
    let t210 = t199 ^ t204;
    let t211 = t209 ^ t210;
    let t212 = t208 ^ t210;
    let t213 = t207 ^ t212;
    let t214 = t206 ^ t213;
    let t215 = t203 ^ t211;
    let t216 = t202 ^ t215;
    let t217 = t199 ^ t201;
    let t218 = t198 ^ t217;
    let t219 = t198 ^ t209;
    let t220 = t197 ^ t218;
    let t221 = t196 ^ t219;
    let t222 = t196 ^ t214;
    let t223 = t195 ^ t221;
    let t224 = t194 ^ t220;
    let t225 = !t223;
    let t226 = !t222;
    let t227 = t216 ^ t226;
    let t228 = t133 ^ t227;
    let t229 = t133 ^ t216;
    let t230 = t130 ^ t225;
    let t231 = t124 ^ t228;
    [t224, t229, t230, t226, t231, t127, t225, t227]
}

/// π⁻¹ on eight bit slices.
#[inline(always)]
pub(in crate::kuznyechik) fn pi_inv<W: Lane>(x: [W; 8]) -> [W; 8] {
    let [x0, x1, x2, x3, x4, x5, x6, x7] = x;
    let t0 = x3 ^ x7;
    let t1 = x3 ^ x4;
    let t2 = x2 ^ x6;
    let t3 = t1 ^ x1;
    let t4 = t0 ^ x1;
    let t5 = t3 & x5;
    let t6 = x5 & t2;
    let t7 = x5 & t4;
    let t8 = t5 & t4;
    let t9 = t2 & t4;
    let t10 = t3 & t2;
    let t11 = t10 & t4;
    let t12 = t6 & t4;
    let t13 = t5 & t2;
    let t14 = t13 & t4;
    let t15 = t3 & t4;
    let t16 = t5 ^ t8;
    let t17 = t7 ^ t9;
    let t18 = t16 ^ t4;
    let t19 = t12 ^ t17;
    let t20 = t19 ^ t6;
    let t21 = t18 ^ t3;
    let t22 = t20 ^ t21;
    let t23 = t19 ^ t2;
    let t24 = t18 ^ t23;
    let t25 = t16 ^ t20;
    let t26 = t15 ^ t24;
    let t27 = t15 ^ t22;
    let t28 = t14 ^ t26;
    let t29 = t14 ^ t25;
    let t30 = t13 ^ t28;
    let t31 = t11 ^ t29;
    let t32 = t10 ^ t27;
    let t33 = !t32;
    let t34 = !t30;
    let t35 = t0 & x3;
    let t36 = x6 & x3;
    let t37 = t0 & x6;
    let t38 = t37 & x3;
    let t39 = x0 & x6;
    let t40 = x0 & x3;
    let t41 = x0 & t0;
    let t42 = t41 & x3;
    let t43 = t39 & x3;
    let t44 = t41 & x6;
    let t45 = t35 ^ x0;
    let t46 = t43 ^ t45;
    let t47 = t39 ^ x3;
    let t48 = t47 ^ x0;
    let t49 = t46 ^ t47;
    let t50 = t45 ^ x6;
    let t51 = t44 ^ t48;
    let t52 = t42 ^ t49;
    let t53 = t41 ^ t51;
    let t54 = t41 ^ t46;
    let t55 = t40 ^ t52;
    let t56 = t38 ^ t50;
    let t57 = t37 ^ t53;
    let t58 = t36 ^ t57;
    let t59 = t36 ^ t56;
    let t60 = t0 ^ t59;
    let t61 = t0 ^ t54;
    let t62 = !t55;
    let t63 = t60 & t31;
    let t64 = t60 & t33;
    let t65 = t60 & t21;
    let t66 = t60 & t34;
    let t67 = t62 & t31;
    let t68 = t62 & t33;
    let t69 = t62 & t21;
    let t70 = t62 & t34;
    let t71 = t58 & t31;
    let t72 = t58 & t33;
    let t73 = t58 & t21;
    let t74 = t58 & t34;
    let t75 = t61 & t31;
    let t76 = t61 & t33;
    let t77 = t61 & t21;
    let t78 = t61 & t34;
    let t79 = t77 ^ t78;
    let t80 = t74 ^ t79;
    let t81 = t76 ^ t80;
    let t82 = t73 ^ t81;
    let t83 = t70 ^ t82;
    let t84 = t75 ^ t83;
    let t85 = t72 ^ t84;
    let t86 = t71 ^ t78;
    let t87 = t69 ^ t85;
    let t88 = t68 ^ t86;
    let t89 = t67 ^ t80;
    let t90 = t66 ^ t87;
    let t91 = t65 ^ t88;
    let t92 = t64 ^ t89;
    let t93 = t63 ^ t83;
    let t94 = t17 ^ t3;
    let t95 = t10 ^ t94;
    let t96 = t8 ^ x5;
    let t97 = t6 ^ t95;
    let t98 = t6 ^ t8;
    let t99 = t5 ^ t97;
    let t100 = t4 ^ t98;
    let t101 = t2 ^ t99;
    let t102 = t15 ^ t96;
    let t103 = t15 ^ t95;
    let t104 = t12 ^ t13;
    let t105 = t103 ^ t104;
    let t106 = t101 ^ t11;
    let t107 = t100 ^ t12;
    let t108 = t10 ^ t102;
    let t109 = !t108;
    let t110 = t11 ^ x5;
    let t111 = t3 ^ t4;
    let t112 = t2 ^ t9;
    let t113 = t15 ^ t2;
    let t114 = t111 ^ t15;
    let t115 = t110 ^ t3;
    let t116 = t110 ^ t112;
    let t117 = t10 ^ t114;
    let t118 = !t113;
    let t119 = t115 & t93;
    let t120 = t115 & t92;
    let t121 = t115 & t91;
    let t122 = t115 & t90;
    let t123 = t117 & t93;
    let t124 = t117 & t92;
    let t125 = t117 & t91;
    let t126 = t117 & t90;
    let t127 = t118 & t93;
    let t128 = t118 & t92;
    let t129 = t118 & t91;
    let t130 = t118 & t90;
    let t131 = t116 & t93;
    let t132 = t116 & t92;
    let t133 = t116 & t91;
    let t134 = t116 & t90;
    let t135 = t133 ^ t134;
    let t136 = t130 ^ t135;
    let t137 = t132 ^ t136;
    let t138 = t129 ^ t137;
    let t139 = t126 ^ t138;
    let t140 = t131 ^ t139;
    let t141 = t128 ^ t140;
    let t142 = t127 ^ t134;
    let t143 = t125 ^ t141;
    let t144 = t124 ^ t142;
    let t145 = t123 ^ t136;
    let t146 = t122 ^ t143;
    let t147 = t121 ^ t144;
    let t148 = t120 ^ t145;
    let t149 = t119 ^ t139;
    let t150 = t93 | t92;
    let t151 = t91 | t90;
    let t152 = t150 | t151;
    let t153 = t106 ^ t149;
    let t154 = t153 & t152;
    let t155 = t106 ^ t154;
    let t156 = t105 ^ t148;
    let t157 = t156 & t152;
    let t158 = t105 ^ t157;
    let t159 = t107 ^ t147;
    let t160 = t159 & t152;
    let t161 = t107 ^ t160;
    let t162 = t109 ^ t146;
    let t163 = t162 & t152;
    let t164 = t109 ^ t163;
    let t165 = t90 ^ t93;
    let t166 = t158 ^ t161;
    let t167 = t155 ^ t165;
    let t168 = t167 ^ t91;
    let t169 = t164 ^ t166;
    let t170 = t169 ^ t92;
    let t171 = t169 ^ t90;
    let t172 = t161 ^ t168;
    let t173 = t161 ^ t167;
    [t168, t166, t173, t164, t170, t93, t172, t171]
}

/// The folded ℓ: `ELL[k] · p[k]` for k < 6 and `ELL[7] · p[6]`, summed, bit by bit
/// (`p[k][b]` is bit `b` of byte `k`).
#[inline(always)]
pub(in crate::kuznyechik) fn ell<W: Lane>(p: &[[W; 8]; 7]) -> [W; 8] {
    let t0 = p[4][5] ^ p[6][0];
    let t1 = p[4][3] ^ p[6][7];
    let t2 = p[1][6] ^ p[3][7];
    let t3 = p[6][4] ^ p[6][6];
    let t4 = p[4][6] ^ p[5][6];
    let t5 = p[4][4] ^ p[5][4];
    let t6 = p[2][5] ^ p[5][3];
    let t7 = t3 ^ p[0][1];
    let t8 = t2 ^ p[6][5];
    let t9 = t1 ^ t8;
    let t10 = t0 ^ p[5][5];
    let t11 = p[5][7] ^ p[0][7];
    let t12 = p[4][7] ^ p[6][2];
    let t13 = p[1][3] ^ p[3][4];
    let t14 = t9 ^ p[6][3];
    let t15 = t7 ^ p[1][7];
    let t16 = t6 ^ p[2][1];
    let t17 = t5 ^ p[2][6];
    let t18 = t4 ^ p[6][1];
    let t19 = t10 ^ p[2][7];
    let t20 = p[4][2] ^ p[5][2];
    let t21 = p[4][1] ^ p[5][1];
    let t22 = p[2][4] ^ p[0][6];
    let t23 = p[1][5] ^ p[3][6];
    let t24 = p[1][4] ^ p[3][5];
    let t25 = t19 ^ p[2][3];
    let t26 = t18 ^ p[0][2];
    let t27 = t17 ^ p[2][2];
    let t28 = t15 ^ t16;
    let t29 = t14 ^ p[0][4];
    let t30 = t13 ^ p[4][0];
    let t31 = t12 ^ p[0][3];
    let t32 = t11 ^ p[2][0];
    let t33 = t32 ^ p[0][0];
    let t34 = t31 ^ p[0][5];
    let t35 = t30 ^ p[5][0];
    let t36 = t27 ^ t29;
    let t37 = t24 ^ t28;
    let t38 = t23 ^ t25;
    let t39 = t22 ^ t38;
    let t40 = t21 ^ t37;
    let t41 = t20 ^ t39;
    let t42 = p[0][7] ^ p[1][1];
    let t43 = p[5][6] ^ p[0][5];
    let t44 = p[4][7] ^ p[6][6];
    let t45 = p[4][4] ^ p[1][0];
    let t46 = p[4][3] ^ p[6][0];
    let t47 = p[4][2] ^ p[5][7];
    let t48 = p[3][0] ^ p[0][6];
    let t49 = p[2][4] ^ p[4][1];
    let t50 = p[1][2] ^ p[3][3];
    let t51 = t9 ^ p[5][3];
    let t52 = t6 ^ p[1][7];
    let t53 = t51 ^ t7;
    let t54 = t50 ^ p[0][1];
    let t55 = t5 ^ t52;
    let t56 = t49 ^ t55;
    let t57 = t48 ^ p[0][0];
    let t58 = t45 ^ p[3][1];
    let t59 = t44 ^ t56;
    let t60 = t43 ^ t54;
    let t61 = t42 ^ p[3][2];
    let t62 = t41 ^ t60;
    let t63 = t41 ^ t53;
    let t64 = t40 ^ t61;
    let t65 = t40 ^ t46;
    let t66 = t4 ^ t63;
    let t67 = t36 ^ t64;
    let t68 = t36 ^ t57;
    let t69 = t35 ^ t67;
    let t70 = t35 ^ t62;
    let t71 = t34 ^ t58;
    let t72 = t34 ^ t47;
    let t73 = t33 ^ t70;
    let t74 = t33 ^ t59;
    let t75 = t32 ^ t65;
    let t76 = t31 ^ t66;
    let t77 = t30 ^ t76;
    let t78 = t29 ^ t74;
    let t79 = t28 ^ t72;
    let t80 = t27 ^ t75;
    let t81 = t26 ^ t80;
    let t82 = t26 ^ t78;
    let t83 = t26 ^ t68;
    let t84 = t25 ^ t71;
    let t85 = t24 ^ t82;
    let t86 = t23 ^ t79;
    let t87 = t22 ^ t81;
    let t88 = t21 ^ t77;
    let t89 = t20 ^ t85;
    let t90 = t2 ^ t87;
    let t91 = t19 ^ t83;
    let t92 = t18 ^ t84;
    let t93 = t17 ^ t86;
    let t94 = t16 ^ t73;
    let t95 = t15 ^ t92;
    let t96 = t14 ^ t94;
    let t97 = t13 ^ t90;
    let t98 = t12 ^ t69;
    let t99 = t11 ^ t95;
    let t100 = t10 ^ t93;
    let t101 = t1 ^ t100;
    let t102 = t0 ^ t98;
    [t97, t88, t89, t101, t91, t99, t102, t96]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kuznyechik::consts::{ELL, PI, PI_INV, gf_mul};

    /// Bit slices of the bytes `64 q .. 64 q + 64`, byte `64 q + i` in lane `i`.
    fn slices(q: usize) -> [u64; 8] {
        let mut x = [0u64; 8];
        for i in 0..64 {
            for (b, w) in x.iter_mut().enumerate() {
                *w |= (((64 * q + i) as u64 >> b) & 1) << i;
            }
        }
        x
    }

    fn lane(y: &[u64; 8], i: usize) -> u8 {
        (0..8).map(|b| (((y[b] >> i) & 1) as u8) << b).sum()
    }

    #[test]
    fn circuits_are_pi_and_its_inverse() {
        for q in 0..4 {
            let (y, z) = (pi(slices(q)), pi_inv(slices(q)));
            for i in 0..64 {
                assert_eq!(lane(&y, i), PI[64 * q + i], "π({})", 64 * q + i);
                assert_eq!(lane(&z, i), PI_INV[64 * q + i], "π⁻¹({})", 64 * q + i);
            }
        }
    }

    #[test]
    fn ell_network_is_the_folded_sum() {
        let coefficients = [ELL[0], ELL[1], ELL[2], ELL[3], ELL[4], ELL[5], ELL[7]];
        for k in 0..7 {
            for b in 0..8 {
                let mut p = [[0u64; 8]; 7];
                p[k][b] = 1;
                let y = ell(&p);
                assert_eq!(
                    lane(&y, 0),
                    gf_mul(1 << b, coefficients[k]),
                    "byte {k} bit {b}"
                );
            }
        }
    }
}
