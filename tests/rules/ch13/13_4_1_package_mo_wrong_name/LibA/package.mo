within;
package Other
end Other;
