//! Criterion benchmarks: static analysis, the matching lower bound, and solving a fixed set of
//! small levels push-optimally. Run with `cargo bench --bench solver`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sokoban::analysis::Analysis;
use sokoban::format::parse_levels;
use sokoban::solver::bound::start_bound;
use sokoban::solver::{Config, solve};

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
    group.finish();
}

criterion_group!(benches, analysis, lower_bound, solving);
criterion_main!(benches);
