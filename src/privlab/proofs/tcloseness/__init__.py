"""Checks and tables shared by the t-closeness claims of thesis ch.7
(:mod:`privlab.proofs.thesis.ch7`) and ins15 (:mod:`privlab.proofs.ins15`)."""
