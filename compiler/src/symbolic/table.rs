//! [`EntityVec`]: a table indexed by a typed index (an `entity!` newtype), so that
//! `flat.vars[v]` says which table `v` indexes and a step-system variable cannot look up a
//! flat model's table.

use super::Var;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut, Index, IndexMut};

/// A `Vec<V>` whose positions are the entities `K`: `table[k]`, `push` returning the new
/// entity, `keys` and `iter_enumerated`. It dereferences to the `Vec` for length, iteration
/// and slices.
pub struct EntityVec<K, V> {
    items: Vec<V>,
    key: PhantomData<fn(K) -> K>,
}

impl<K, V> EntityVec<K, V> {
    pub fn new() -> Self {
        EntityVec {
            items: Vec::new(),
            key: PhantomData,
        }
    }

    /// The values, without their keys.
    pub fn into_vec(self) -> Vec<V> {
        self.items
    }
}

impl<K: Var, V> EntityVec<K, V> {
    /// Appends `value`; its entity.
    pub fn push(&mut self, value: V) -> K {
        let k = K::new(self.items.len());
        self.items.push(value);
        k
    }

    /// The entity the next `push` returns.
    pub fn next_key(&self) -> K {
        K::new(self.items.len())
    }

    /// Every entity of the table, in order.
    pub fn keys(&self) -> impl Iterator<Item = K> + '_ {
        (0..self.items.len()).map(K::new)
    }

    /// Every (entity, value) pair, in order.
    pub fn iter_enumerated(&self) -> impl Iterator<Item = (K, &V)> + '_ {
        self.items.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }

    /// Every (entity, value) pair, in order, the values mutable.
    pub fn iter_mut_enumerated(&mut self) -> impl Iterator<Item = (K, &mut V)> + '_ {
        self.items
            .iter_mut()
            .enumerate()
            .map(|(i, v)| (K::new(i), v))
    }

    pub fn get(&self, k: K) -> Option<&V> {
        self.items.get(k.index())
    }
}

impl<K, V> Default for EntityVec<K, V> {
    fn default() -> Self {
        EntityVec::new()
    }
}

impl<K, V: Clone> Clone for EntityVec<K, V> {
    fn clone(&self) -> Self {
        EntityVec {
            items: self.items.clone(),
            key: PhantomData,
        }
    }
}

impl<K, V: std::fmt::Debug> std::fmt::Debug for EntityVec<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.items.fmt(f)
    }
}

impl<K, V: PartialEq> PartialEq for EntityVec<K, V> {
    fn eq(&self, other: &Self) -> bool {
        self.items == other.items
    }
}

impl<K, V> Deref for EntityVec<K, V> {
    type Target = Vec<V>;
    fn deref(&self) -> &Vec<V> {
        &self.items
    }
}

impl<K, V> DerefMut for EntityVec<K, V> {
    fn deref_mut(&mut self) -> &mut Vec<V> {
        &mut self.items
    }
}

impl<K: Var, V> Index<K> for EntityVec<K, V> {
    type Output = V;
    fn index(&self, k: K) -> &V {
        &self.items[k.index()]
    }
}

impl<K: Var, V> IndexMut<K> for EntityVec<K, V> {
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.items[k.index()]
    }
}

/// By position too, while tables and their users move to typed indices.
impl<K, V> Index<usize> for EntityVec<K, V> {
    type Output = V;
    fn index(&self, i: usize) -> &V {
        &self.items[i]
    }
}

impl<K, V> IndexMut<usize> for EntityVec<K, V> {
    fn index_mut(&mut self, i: usize) -> &mut V {
        &mut self.items[i]
    }
}

impl<K, V> From<Vec<V>> for EntityVec<K, V> {
    fn from(items: Vec<V>) -> Self {
        EntityVec {
            items,
            key: PhantomData,
        }
    }
}

impl<K, V> FromIterator<V> for EntityVec<K, V> {
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Self {
        EntityVec::from(iter.into_iter().collect::<Vec<V>>())
    }
}

impl<K, V> IntoIterator for EntityVec<K, V> {
    type Item = V;
    type IntoIter = std::vec::IntoIter<V>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a EntityVec<K, V> {
    type Item = &'a V;
    type IntoIter = std::slice::Iter<'a, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<'a, K, V> IntoIterator for &'a mut EntityVec<K, V> {
    type Item = &'a mut V;
    type IntoIter = std::slice::IterMut<'a, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbolic::VarId;

    #[test]
    fn typed_positions() {
        let mut t: EntityVec<VarId, &str> = EntityVec::new();
        let a = t.push("a");
        let b = t.push("b");
        assert_eq!((a.index(), b.index()), (0, 1));
        assert_eq!(t[b], "b");
        t[a] = "z";
        assert_eq!(t.keys().collect::<Vec<_>>(), vec![a, b]);
        assert_eq!(
            t.iter_enumerated().map(|(_, v)| *v).collect::<Vec<_>>(),
            ["z", "b"]
        );
        assert_eq!(t.len(), 2);
    }
}
