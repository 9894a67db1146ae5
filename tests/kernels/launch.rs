//! Launch validation and views: placeholder, filled in below.
