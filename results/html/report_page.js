// SPDX-License-Identifier: GPL-2.0-or-later
// The HTML report's page script: draws the answer, the charts (Vega-Lite through vega-embed,
// SVG renderer) and the tables from the report JSON in #report-data. Reads JSON report
// schemas 1-3 (docs/report.md): schema 1 has *_mib_s keys and no objective or figure.
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const report = data.report;
  const main = document.getElementById('report');
  const statusColours = { domain: ['ok', 'unstable', 'slow', 'hang', 'error', 'unsupported', 'crashed', 'wedged'],
    range: ['#2e7d32', '#f9a825', '#8d6e63', '#c62828', '#6a1b9a', '#9e9e9e', '#ad1457', '#000000'] };

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function add(parent, tag, text, cls) { return parent.appendChild(el(tag, text, cls)); }
  function section(title) { add(main, 'h2', title); return main.appendChild(el('div')); }
  function num(x, digits) { return typeof x === 'number' ? x.toFixed(digits === undefined ? 2 : digits) : 'n/a'; }
  function score(o, key) { return o ? (o[key] !== undefined ? o[key] : o[key + '_mib_s']) : undefined; }
  const unit = (report.objective && report.objective.unit) || 'MiB/s';
  // A trial's median and interval in the objective's unit (figure), else its score (schema 1).
  function figures(o) {
    if (o && o.figure) return { median: o.figure.median, low: o.figure.ci_low, high: o.figure.ci_high };
    return { median: score(o, 'median'), low: score(o, 'ci_low'), high: score(o, 'ci_high') };
  }
  function settingsText(s) { return Object.keys(s || {}).map(k => k + '=' + s[k]).join(' '); }
  function differences(s) {
    const base = (report.baseline && report.baseline.settings) || {};
    return Object.keys(s || {}).filter(k => String(s[k]) !== String(base[k]));
  }
  function table(parent, head, rows) {
    const t = add(parent, 'table');
    const tr = add(t, 'tr');
    head.forEach(h => add(tr, 'th', h));
    rows.forEach(r => { const row = add(t, 'tr'); r.forEach(c => add(row, 'td', c)); });
    return t;
  }
  function chart(parent, id, spec) {
    const holder = add(parent, 'div');
    holder.id = id;
    spec.$schema = 'https://vega.github.io/schema/vega-lite/v5.json';
    vegaEmbed(holder, spec, { renderer: 'svg', actions: false }).catch(e => console.error('chart ' + id + ': ' + e));
  }

  function heading() {
    const dev = report.device || {};
    add(main, 'h1', 'disktune report: ' + (dev.model || dev.path || 'unknown drive'));
    add(main, 'p', 'Objective ' + ((report.objective && report.objective.name) || 'seq-read') + ' (' + unit +
        (report.objective && report.objective.direction === 'lower' ? ', lower is better' : ', higher is better') +
        '), strategy ' + report.strategy + ', report schema ' + report.schema_version + '.', 'muted');
    if (dev.simulated)
      add(main, 'p', 'SIMULATED DRIVE: every figure here comes from a model, not from a disk. Nothing here applies to real hardware.', 'banner');
    if (typeof dev.emulated_by === 'string' && dev.emulated_by)
      add(main, 'p', 'EMULATED DRIVE (' + dev.emulated_by + '): every figure here was measured through the kernel on a timing model behind a FUSE file, not on a disk.', 'banner');
    if (typeof dev.backing_note === 'string' && dev.backing_note) add(main, 'p', 'Note: ' + dev.backing_note + '.', 'banner');
  }

  function whyKept() {
    if (report.wedged) return 'the device wedged: ' + report.wedged_detail;
    if (report.too_noisy) return 'the measurements are too noisy to tell: ' + report.noise_detail;
    if (!report.completed) return 'the run did not complete: ' + report.stop_reason;
    if (!(report.trials || []).length && (report.stop_reason || '').startsWith('baseline only')) return report.stop_reason;
    const stable = (report.trials || []).filter(t => t.status === 'ok');
    if (!stable.length) return 'no trial finished stable';
    return 'no configuration beat the baseline by more than its interval and the 2 % rule' +
        (report.stop_reason ? ' (' + report.stop_reason + ')' : '');
  }

  function answer() {
    // A hand-edited winner (null, or changes no setting takes) is read as disktune reads it
    // for the snippets (data.keep_baseline): the page and the install lines never disagree.
    const w = report.winner && typeof report.winner === 'object' ? report.winner : {};
    const keep = typeof data.keep_baseline === 'boolean' ? data.keep_baseline : w.keep_baseline !== false;
    const box = main.appendChild(el('div', null, 'answer' + (keep ? ' keep' : '')));
    const base = figures(baselineOfAnswer());
    const baseText = 'baseline ' + num(base.median) + ' ' + unit + ' [95 % ' + num(base.low) + ', ' + num(base.high) + ']';
    if (keep) {
      add(box, 'p', 'Keep the baseline: ' + whyKept() + '.');
      add(box, 'p', baseText);
    } else {
      const f = figures(w);
      add(box, 'p', 'Winner (trial ' + w.trial_id + (w.confirmed ? ', confirmed' : ', unconfirmed') + '): ' + num(f.median) + ' ' + unit +
          ' [95 % ' + num(f.low) + ', ' + num(f.high) + '] against ' + baseText + ': speedup ' + num(w.speedup, 3) + '\u00d7.');
      add(box, 'p', 'Changes: ' + settingsText(w.changes));
      const tie = w.tie;  // a hand-edited report may hold anything here: shown only when well formed
      const tieId = tie && typeof tie === 'object' && typeof tie.rule === 'string' && typeof tie.faster_trial_id === 'number' ? tie.faster_trial_id : null;
      if (tieId !== null) add(box, 'p', 'Tie: trial ' + tieId + ' read ' + contenderFigure(tieId) + ' ' + unit +
          ', a higher median but not significantly faster than the winner; a tie goes by the winner rule\'s order: ' + tie.rule + '.');
      // Only finalists the round measured (not the baseline, not the winner itself): an entry
      // naming anything else is not shown.
      const roundIds = (report.confirmation && Array.isArray(report.confirmation.results) ? report.confirmation.results : [])
          .filter(r => r && Number.isInteger(r.id) && r.id !== 0).map(r => r.id);
      const tied = (Array.isArray(w.unseparated) ? w.unseparated : [])
          .filter(t => t && typeof t === 'object' && Number.isInteger(t.trial_id) && t.trial_id !== tieId &&
                       t.trial_id !== Number(w.trial_id) && roundIds.includes(t.trial_id))
          .map(t => 'trial ' + t.trial_id + ' (' + contenderFigure(t.trial_id) + ' ' + unit + ')');
      if (tied.length) add(box, 'p', 'Not separated from the winner by the confirmation round (either reads as fast within the noise): ' + tied.join('; ') + '.');
    }
    if (!report.completed && !keep) add(box, 'p', 'The run did not complete: ' + report.stop_reason);
    // Which knobs mattered on this drive (absent before the field existed: nothing said).
    const acting = Array.isArray(report.acting) ? report.acting.filter(a => typeof a === 'string') : null;
    if (acting && acting.length) add(box, 'p', 'Settings that made a difference beyond the noise in the screening (a value faster or slower than the baseline): ' + acting.join(', ') + '.');
    else if (acting && keep && (report.trials || []).length && !(report.unscreened || []).length)
      add(box, 'p', 'No setting\'s effect exceeded the noise in the screening: every value tried tied with the baseline.');
    (data.snippets || []).forEach(s => { add(box, 'h3', s.title); add(box, 'pre', s.text); });
  }
  // Trial `id`'s median in the objective's unit: the confirmation round's figure (where ties
  // are decided), else the search's; 'n/a' when neither holds it (a score is not a figure).
  function contenderFigure(id) {
    const c = report.confirmation;
    const pool = (c && Array.isArray(c.results) ? c.results : []).concat(Array.isArray(report.trials) ? report.trials : []);
    const t = pool.find(r => r && r.id === id);
    return t ? num(figures(t).median) : 'n/a';
  }
  // The baseline the answer is quoted against: the confirmation round's when it decided.
  function baselineOfAnswer() {
    const c = report.confirmation;
    if (report.winner && report.winner.confirmed && c && c.results && c.results.length) return c.results[0];
    return report.baseline;
  }

  function trialRows() {
    return (report.trials || []).map(t => {
      const f = figures(t);
      return { id: t.id, status: t.status, median: f.median || 0, low: f.low || f.median || 0, high: f.high || f.median || 0,
               settings: settingsText(t.settings), changed: differences(t.settings), detail: t.detail || '' };
    });
  }
  function baselineLayers() {
    const b = figures(report.baseline);
    if (!b.median) return [];
    return [{ data: { values: [{ low: b.low || b.median, high: b.high || b.median, median: b.median }] },
              layer: [{ mark: { type: 'rect', opacity: 0.15, color: '#1565c0' }, encoding: { y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' } } },
                      { mark: { type: 'rule', color: '#1565c0', strokeDash: [4, 3] }, encoding: { y: { field: 'median', type: 'quantitative' } } }] }];
  }
  function trialsChart() {
    const rows = trialRows();
    // The answer above compares with the round's re-measured baseline when the round confirmed
    // it; this band is the search's (a newcomer saw two baselines and no word why).
    const parent = section('Every trial: median and 95 % interval (blue band: the baseline as the search measured it' +
      (baselineOfAnswer() !== report.baseline ? '; the answer above compares with the confirmation round\'s own measurement of it)' : ')'));
    if (!rows.length) { add(parent, 'p', 'No trial ran.'); return; }
    const tip = [{ field: 'id' }, { field: 'status' }, { field: 'median', format: '.2f' }, { field: 'low', format: '.2f' },
                 { field: 'high', format: '.2f' }, { field: 'settings' }, { field: 'detail' }];
    const x = { field: 'id', type: 'quantitative', title: 'trial', axis: { tickMinStep: 1, format: 'd' } };
    chart(parent, 'trials-chart', { width: 900, height: 320, layer: baselineLayers().concat([
      { data: { values: rows }, mark: { type: 'rule' }, encoding: { x, y: { field: 'low', type: 'quantitative', title: axisTitle(report.objective) }, y2: { field: 'high' },
        color: { field: 'status', type: 'nominal', scale: statusColours } } },
      { data: { values: rows }, name: 'trial_points', mark: { type: 'point', filled: true, size: 50 },
        encoding: { x, y: { field: 'median', type: 'quantitative', title: axisTitle(report.objective) }, color: { field: 'status', type: 'nominal', scale: statusColours }, tooltip: tip } }]) });
  }

  function screenedChart() {
    // A scheduler switch brings its own tunables (absent under the baseline's scheduler) and
    // resets nr_requests: a trial that changes only those with the scheduler is screened
    // alone, its value labelled with what came along ("none (nr_requests=128)").
    const base = (report.baseline && report.baseline.settings) || {};
    const alongside = r => r.changed.filter(k => k !== 'scheduler' && (k === 'nr_requests' || !(k in base)));
    const switchOnly = r => {
      if (!r.changed.includes('scheduler')) return r;
      const along = alongside(r);
      if (along.length === r.changed.length - 1) { r.changed = ['scheduler']; r.along = along; }
      return r;
    };
    const rows = trialRows().map(switchOnly).filter(r => r.changed.length === 1 && r.status === 'ok');
    const parent = section('Each setting screened alone (trials that change one setting from the baseline; a scheduler with what its switch brings)');
    if (!rows.length) { add(parent, 'p', 'No trial changed exactly one setting.'); return; }
    rows.forEach(r => {
      const settings = ((report.trials || []).find(t => t.id === r.id) || {}).settings || {};
      r.setting = r.changed[0];
      r.value = String(settings[r.setting]) + (r.along && r.along.length ? ' (' + r.along.map(k => k + '=' + settings[k]).join(' ') + ')' : '');
    });
    // Each axis in the values' order (the x encodings keep the data's): numbers by their
    // value (128, 256, 8192, never 8192, 256, 128 as trials came), names alphabetically, after them.
    const leading = v => { const m = /^-?\d+(\.\d+)?/.exec(v); return m ? parseFloat(m[0]) : NaN; };
    const byValue = (a, b) => {
      const x = leading(a), y = leading(b);
      if (!isNaN(x) && !isNaN(y) && x !== y) return x - y;
      if (isNaN(x) !== isNaN(y)) return isNaN(x) ? 1 : -1;
      return a < b ? -1 : a > b ? 1 : 0;
    };
    rows.sort((a, b) => (a.setting < b.setting ? -1 : a.setting > b.setting ? 1 : byValue(a.value, b.value)));
    chart(parent, 'screened-chart', { data: { values: rows }, facet: { field: 'setting', type: 'nominal', title: null }, columns: 3,
      resolve: { scale: { x: 'independent' } },
      spec: { width: 250, height: 180, layer: [
        { mark: 'rule', encoding: { x: { field: 'value', type: 'ordinal', sort: null }, y: { field: 'low', type: 'quantitative', title: unit }, y2: { field: 'high' } } },
        { mark: { type: 'point', filled: true }, encoding: { x: { field: 'value', type: 'ordinal', sort: null }, y: { field: 'median', type: 'quantitative' },
          tooltip: [{ field: 'id' }, { field: 'value' }, { field: 'median', format: '.2f' }] } }] } });
  }

  // An axis title: the objective's name, its unit and which way is better.
  function axisTitle(objective) {
    const o = objective || {};
    return (o.name || 'seq-read') + ' (' + (o.unit || 'MiB/s') + (o.direction === 'lower' ? ', lower is better)' : ', higher is better)');
  }
  function paretoChart() {
    // The front is computed on scores (higher is better on both); the axes show the figures.
    const rows = (report.trials || []).filter(t => t.status === 'ok' && t.guard).map(t => ({
      id: t.id, a: score(t, 'median'), b: t.guard.median, settings: settingsText(t.settings),
      x: t.guard_figure ? t.guard_figure.median : t.guard.median, y: figures(t).median }));
    if (!rows.length) return;
    // A trial that failed the guard (beyond --tolerance) is never a candidate: marked as such,
    // and the front is drawn among the others.
    const excluded = Array.isArray(report.guard_excluded) ? report.guard_excluded : [];
    const baseGuard = report.baseline && report.baseline.guard ? report.baseline.guard.median : null;
    rows.forEach(r => { r.fails = excluded.includes(r.id); });
    const within = rows.filter(r => !r.fails);
    rows.forEach(r => {
      const front = !r.fails && !within.some(o => o.a >= r.a && o.b >= r.b && (o.a > r.a || o.b > r.b));
      const below = baseGuard > 0 ? ' (' + num(100 * (1 - r.b / baseGuard), 1) + ' % below the baseline)' : '';
      r.pareto = r.fails ? 'fails the guard' : front ? 'on the front' : 'behind the front';
      r.guard_note = r.fails ? 'fails the guard' + below + ': no candidate' : 'within the guard';
    });
    const parent = section('Two objectives: the Pareto front (no other trial is better on both)');
    chart(parent, 'pareto-chart', { width: 600, height: 360, data: { values: rows }, name: 'pareto_points', mark: { type: 'point', filled: true, size: 60 },
      encoding: { x: { field: 'x', type: 'quantitative', title: 'guard: ' + axisTitle(report.guard_objective), scale: { zero: false } },
        y: { field: 'y', type: 'quantitative', title: axisTitle(report.objective), scale: { zero: false } },
        color: { field: 'pareto', type: 'nominal', title: 'trial' }, tooltip: [{ field: 'id' }, { field: 'y', title: 'objective', format: '.2f' }, { field: 'x', title: 'guard', format: '.2f' }, { field: 'guard_note', title: 'guard' }, { field: 'settings' }] } });
  }

  function searchSpace() {
    const space = report.space || {};
    const parent = section('Search space: ' + (space.legal_count || 0) + ' legal configurations');
    // Which legal values a trial (or the baseline) measured: a bounded search leaves some untried.
    const measured = new Map();
    const note = settings => Object.entries(settings || {}).forEach(([name, value]) => {
      if (!measured.has(name)) measured.set(name, new Set());
      measured.get(name).add(String(value));
    });
    note((report.baseline || {}).settings);
    (report.trials || []).forEach(t => note(t.settings));
    table(parent, ['setting', 'legal values', 'measured', 'not measured'], (space.dimensions || []).map(d => {
      const seen = measured.get(d.setting) || new Set();
      const values = d.values || [];
      return [d.setting, values.join(', '), values.filter(v => seen.has(String(v))).join(', '),
        values.filter(v => !seen.has(String(v))).join(', ') || '(all measured)'];  // 'none' read as the scheduler
    }));
    if ((space.pruned || []).length) table(parent, ['pruned', 'count'], space.pruned.map(p => [p.reason, p.count]));
    if ((space.unsupported || []).length) table(parent, ['unsupported setting', 'why'], space.unsupported.map(u => [u.setting, u.reason]));
  }

  function failures() {
    const failed = (report.trials || []).filter(t => t.status !== 'ok');
    const parent = section('Failed trials: ' + failed.length);
    if (!failed.length) { add(parent, 'p', 'Every trial finished stable.'); return; }
    const t = table(parent, ['trial', 'status', 'changed from the baseline', 'evidence'], []);
    failed.forEach(f => {
      const row = add(t, 'tr');
      add(row, 'td', f.id); add(row, 'td', f.status);
      add(row, 'td', differences(f.settings).map(k => k + '=' + f.settings[k]).join(' '));
      const cell = add(row, 'td', f.detail || '');
      if ((f.kernel_log || []).length) add(cell, 'pre', f.kernel_log.join('\n'));
    });
  }

  // "IBM-DJNA-352500 / GW0GWF05809 / JK8OA6AA"; a part the drive does not report is "n/a", and a
  // drive with none of them (a loop, virtio or NVMe device without ATA identify data) says so.
  function identity(dev) {
    const parts = [dev.model, dev.serial, dev.firmware];
    if (!parts.some(p => p)) return 'none (no ATA identify data' + (dev.backing_file ? ': a loop device' : '') + ')';
    return parts.map(p => p || 'n/a').join(' / ');
  }
  function provenance() {
    const dev = report.device || {};
    const opts = report.options || {};
    const parent = section('Provenance');
    table(parent, ['', ''], [['tool version', report.tool_version], ['kernel', report.kernel], ['started', report.started_at],
      ['finished', report.finished_at], ['device', dev.path], ['model / serial / firmware', identity(dev)],
      ['size', dev.size_bytes === undefined ? 'n/a' : dev.size_bytes + ' bytes'], ['stable path', dev.stable_path || 'none'],
      ['wwid', dev.wwid || 'none'], ['backing file', dev.backing_file || 'none'], ['seed', report.seed],
      ['sampling', report.repeats + '-' + report.max_repeats + ' samples, method ' + report.method + ', noise floor ' + num(report.noise_floor_pct) + ' %'],
      ['measured / wall', num(report.measured_s, 1) + ' s' + (dev.simulated ? ' (simulated time)' : '') + ' / ' + num(report.wall_s, 1) + ' s'],
      ['command line', Array.isArray(opts.command_line) ? opts.command_line.join(' ') : String(opts.command_line || 'n/a')],
      ['restored', report.restored ? 'yes' : 'no: ' + (report.restore_detail || '')]]);
    if (report.integrity_note) add(parent, 'p', report.integrity_note);
  }

  heading(); answer(); trialsChart(); screenedChart(); paretoChart(); searchSpace(); failures(); provenance();
})();
