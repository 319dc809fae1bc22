// fmul64.sv -- a combinational IEEE 754 binary64 multiplier whose significand
// product may drop its low partial-product columns, the usual way to save
// multiplier area. Written for fprlab's "Measure your RTL" walkthrough
// (docs/rtl.md): Verilator simulates it behind the plugin ABI
// (plugin.cpp), Yosys counts its cells (run.sh).
//
// Parameters
//
//   TRUNC (0..48)  The 53x53-bit significand product is the sum of 53 rows
//                  (partial products) a * b[i] * 2^i, 2809 bits in 105
//                  columns. The TRUNC lowest columns (weights 2^0 ..
//                  2^(TRUNC-1)) are never generated: their AND gates and
//                  their full adders are removed, which is
//                  TRUNC*(TRUNC+1)/2 partial-product bits (1,176 at 48). The
//                  sticky and round bits are then computed from the
//                  truncated sum, as the hardware would. TRUNC = 0 is the
//                  exact product: the IEEE product with the rounding below.
//   COMP (0/1)     Constant compensation: adds to the truncated sum the
//                  nearest integer to the expected value of the dropped bits
//                  for uniformly random operand bits, E = ((TRUNC-1)*2^TRUNC
//                  + 1)/4 (column c holds c+1 bits, each 1 with probability
//                  1/4), a constant addend that costs a few gates and
//                  centres the truncation error around zero.
//   RZ (0/1)       Rounding of the 106-bit sum to 53 bits: 0 = to nearest,
//                  ties to even (round and sticky bits, an incrementer);
//                  1 = toward zero (the incrementer is removed).
//
// Error bound. Let P be the exact product of the significands (integers in
// [2^52, 2^53)), so P is in [2^104, 2^106). Column c < 53 holds c+1 bits,
// so the dropped part is D = P - P' with
//     0 <= D <= Dmax = sum_{c<TRUNC} (c+1)*2^c = (TRUNC-1)*2^TRUNC + 1
// (D <= the product of the significands' fraction parts, so P' >= 2^104:
// the normalisation stays a one-bit shift). The relative error of the sum
// is D/P <= Dmax*2^-104 (with COMP: |D - E| <= max(E, Dmax - E), about
// 0.75*Dmax). Rounding the sum adds at most u = 2^-53 of the result (RNE)
// or less than 2u (RZ). So for normal results, relative to the exact
// product x*y:
//     |r - xy| / |xy| <= Dmax*2^-104 + 2^-53        (COMP=0, RZ=0)
//     |r - xy| / |xy| <  Dmax*2^-104 + 2^-52        (COMP=0, RZ=1)
//     |r - xy| / |xy| <= max(E, Dmax-E)*2^-104 + 2^-53 (+2^-53 more with RZ)
// e.g. TRUNC = 32: Dmax*2^-104 < 2^-67.0; TRUNC = 48: < 2^-50.4. The error
// is one-sided (r <= the exact product in magnitude) without COMP.
//
// Special values. Subnormals are flushed: a subnormal operand is read as a
// zero of its sign (denormals-are-zero), and a result whose exponent,
// after rounding with an unbounded exponent, is below the normal range is
// a zero of the product's sign (flush-to-zero). Infinities and NaNs follow
// IEEE 754 (inf*0 and any NaN operand give the quiet NaN 0x7ff8...0, sign
// cleared); overflow gives infinity (RNE) or the largest finite number (RZ).
// Falcon's signing never meets a subnormal, so TRUNC = 0 signs as binary64.
module fmul64 #(
    parameter int TRUNC = 0,
    parameter int COMP = 0,
    parameter int RZ = 0
) (
    input  logic [63:0] a,
    input  logic [63:0] b,
    output logic [63:0] y
);

  // The columns that are kept, and the compensation constant.
  localparam logic [105:0] KEEP = ~((106'd1 << TRUNC) - 106'd1);
  localparam logic [105:0] CONST = (COMP != 0 && TRUNC > 0) ?
      (((106'(TRUNC) - 106'd1) << TRUNC) + 106'd3) >> 2 : 106'd0;  // round(Dmax/4)

  // Fields; subnormals read as zero.
  logic sa, sb, s;
  logic [10:0] ea, eb;
  logic [51:0] fa, fb;
  assign {sa, ea, fa} = a;
  assign {sb, eb, fb} = b;
  assign s = sa ^ sb;
  logic za, zb, ia, ib, na, nb;
  assign za = ea == 11'd0;
  assign zb = eb == 11'd0;
  assign ia = ea == 11'h7ff && fa == 52'd0;
  assign ib = eb == 11'h7ff && fb == 52'd0;
  assign na = ea == 11'h7ff && fa != 52'd0;
  assign nb = eb == 11'h7ff && fb != 52'd0;
  logic [52:0] ma, mb;
  assign ma = {1'b1, fa};
  assign mb = {1'b1, fb};

  // The significand product: the rows a*b[i]*2^i without their dropped
  // columns, summed, plus the compensation. A row i >= TRUNC is kept whole,
  // so those rows are the product of a and b with its TRUNC low bits
  // cleared (their AND gates are constant zeros, which synthesis removes);
  // a row i < TRUNC keeps the bits of a from position TRUNC-i up, which is
  // (a >> (TRUNC-i)) << TRUNC, and those kept parts add up to less than
  // 2^53. This is the same sum as the rows one by one,
  //   sum = CONST + sum_{i: b[i]} ((a << i) & KEEP),
  // written so that Verilator computes it with one wide product and word
  // additions instead of 53 additions 106 bits wide.
  logic [52:0] mbh;
  logic [63:0] low;
  logic [105:0] sum;
  assign mbh = mb & 53'(KEEP);
  always_comb begin
    low = 64'd0;
    for (int i = 0; i < TRUNC; i++)
      low = low + ((64'(ma) >> (TRUNC - i)) & {64{mb[i]}});
  end
  assign sum = CONST + 106'(ma) * 106'(mbh) + (106'(low) << TRUNC);

  // Normalise (the sum is in [2^104, 2^106)) and round to 53 bits.
  logic top, guard, sticky, up;
  logic [52:0] m;
  logic [53:0] mr;  // mr[52] is the hidden bit (1 unless mr[53] carried)
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_hidden;
  assign unused_hidden = mr[52];
  /* verilator lint_on UNUSEDSIGNAL */
  assign top = sum[105];
  assign m = top ? sum[105:53] : sum[104:52];
  assign guard = top ? sum[52] : sum[51];
  assign sticky = top ? |sum[51:0] : |sum[50:0];
  assign up = RZ == 0 && guard && (sticky || m[0]);
  assign mr = {1'b0, m} + 54'(up);

  // The biased exponent: ea + eb - 1023, +1 for each carry.
  logic signed [13:0] e;
  assign e = 14'(ea) + 14'(eb) - 14'sd1023 + 14'(top) + 14'(mr[53]);

  always_comb begin
    if (na || nb || (ia && zb) || (ib && za)) y = 64'h7ff8_0000_0000_0000;
    else if (ia || ib) y = {s, 11'h7ff, 52'd0};
    else if (za || zb || e <= 0) y = {s, 63'd0};
    else if (e >= 14'sd2047) y = RZ != 0 ? {s, 11'h7fe, {52{1'b1}}} : {s, 11'h7ff, 52'd0};
    else y = {s, e[10:0], mr[53] ? 52'd0 : mr[51:0]};
  end
endmodule
