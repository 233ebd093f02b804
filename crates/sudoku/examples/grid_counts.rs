//! Scratch: counts of empty grids.
use dlx_sudoku::{Grid, GridMatrix, Rules, Size};
fn main() {
    for s in std::env::args().skip(1) {
        let size: Size = s.parse().unwrap();
        let rules = Rules::new(size);
        let m = GridMatrix::new(&rules);
        let t = std::time::Instant::now();
        let n = m.solver().count(&Grid::new(rules), None).unwrap();
        println!("{size} {n} {:?}", t.elapsed());
    }
}
