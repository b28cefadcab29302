import { test } from "uvu";
import * as assert from "uvu/assert";
import { Exposition, tidyValue } from "./exposition.js";

test("a cost summed from many responses prints without float noise, in the text and the families", () => {
  // 0.003 + 0.01744436 in binary floating point: the kind of sum the read model makes.
  const noisy = 0.003 + 0.01744436;
  assert.is.not(String(noisy), "0.02044436", "the sum carries noise to begin with");
  const x = new Exposition().metric("insights_cost_usd_total", "counter", "Cost", [{ labels: { model: "m" }, value: noisy }]);
  assert.match(x.toString(), /^insights_cost_usd_total\{model="m"\} 0\.02044436$/m);
  assert.is(x.families()[0]?.samples[0]?.value, 0.02044436);
});

test("whole numbers keep every digit; special values stay as they are; rounding keeps order", () => {
  assert.is(tidyValue(9_007_199_254_740_991), 9_007_199_254_740_991);
  assert.is(tidyValue(1_574_828), 1_574_828);
  assert.is(tidyValue(0), 0);
  assert.ok(Number.isNaN(tidyValue(NaN)));
  assert.is(tidyValue(Infinity), Infinity);
  assert.is(tidyValue(0.1 + 0.2), 0.3);
  assert.ok(tidyValue(1.000000000000001) <= tidyValue(1.000000000000002));
  assert.match(new Exposition().metric("g", "gauge", "h", [{ value: NaN }, { value: -Infinity }]).toString(), /^g NaN\ng -Inf$/m);
});

test.run();
