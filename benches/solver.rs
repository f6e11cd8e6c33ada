//! Criterion benchmarks: static analysis, the matching lower bound and the fast engine's
//! player-aware distance tables, solving a fixed set of small levels push-optimally, and the
//! fast engine under a node limit (deterministic, so the same work every run). Run with
//! `cargo bench --bench solver`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sokoban::analysis::Analysis;
use sokoban::format::parse_levels;
use sokoban::solver::bound::start_bound;
use sokoban::solver::frozen::FrozenTables;
use sokoban::solver::{Config, Mode, solve};

fn levels(file: &str) -> Vec<sokoban::Level> {
    let path = format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"));
    parse_levels(&std::fs::read_to_string(path).expect("bundled data")).expect("valid levels")
}

fn analysis(c: &mut Criterion) {
    let xs = levels("xsokoban90.xsb");
    c.bench_function("analysis/xsokoban 1-10", |b| {
        b.iter(|| xs[..10].iter().map(|l| Analysis::new(black_box(l)).live()).sum::<usize>())
    });
}

fn lower_bound(c: &mut Criterion) {
    let xs = levels("xsokoban90.xsb");
    c.bench_function("matching bound/xsokoban 1-10 start", |b| {
        b.iter(|| xs[..10].iter().map(|l| start_bound(black_box(l)).unwrap_or(0)).sum::<u64>())
    });
}

fn player_aware_tables(c: &mut Criterion) {
    let analyses: Vec<Analysis> = levels("xsokoban90.xsb")[..10].iter().map(Analysis::new).collect();
    c.bench_function("player-aware tables/xsokoban 1-10", |b| {
        b.iter(|| {
            analyses
                .iter()
                .map(|a| FrozenTables::player_aware_within(black_box(a), &mut || false).map_or(0, |t| t.bytes()))
                .sum::<usize>()
        })
    });
}

fn solving(c: &mut Criterion) {
    let mb = levels("microban.xsb");
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    group.bench_function("microban 1-30 push-optimal", |b| {
        b.iter(|| {
            mb[..30].iter().map(|l| solve(black_box(l), &Config::default()).map_or(0, |s| s.pushes)).sum::<usize>()
        })
    });
    let boxoban = levels("boxoban-medium-1000.xsb");
    group.bench_function("boxoban medium 1-50 push-optimal", |b| {
        b.iter(|| boxoban[..50].iter().map(|l| solve(l, &Config::default()).map_or(0, |s| s.pushes)).sum::<usize>())
    });
    // The fast engine on hard levels, 2,000 expansions each: its speed per expansion.
    let xs = levels("xsokoban90.xsb");
    let fast = Config { mode: Mode::Fast, node_limit: Some(2_000), ..Config::default() };
    group.bench_function("xsokoban 1-10 fast, 2,000 expansions", |b| {
        b.iter(|| xs[..10].iter().map(|l| solve(black_box(l), &fast).map_or(0, |s| s.pushes)).sum::<usize>())
    });
    group.finish();
}

criterion_group!(benches, analysis, lower_bound, player_aware_tables, solving);
criterion_main!(benches);
